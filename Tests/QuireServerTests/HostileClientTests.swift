import AsyncHTTPClient
import Foundation
import NIOCore
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

/// The real `quire-server` on loopback against clients that try to hold it: connections that
/// say nothing, heads and bodies that trickle in, thousands of idle connections.
@Suite(.serialized) struct HostileClientTests {
    /// A raw connection that has sent the head of a `POST /v1/sync` declaring a 100-byte
    /// body, and `start` of that body.
    static func syncOf100Bytes(port: Int, token: String, starting start: String) throws -> RawConnection {
        let connection = try RawConnection(port: port)
        connection.send(
            Array(
                "POST /v1/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n\(start)"
                    .utf8))
        return connection
    }

    @Test func anIdleConnectionAndAOneBytePerSecondHeadAreClosedWithinTheIdleTimeout() async throws {
        let live = try await LiveFixture.start(["--idle-timeout", "2"])
        defer { Task { await live.finish() } }
        let server = live.server

        let idle = try RawConnection(port: server.port)
        let slow = try RawConnection(port: server.port)
        let head = Array(
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 60))\r\n\r\n".utf8)
        async let idleClosed = onThread { idle.closedByServer(within: 12) }
        async let slowClosed = onThread { slow.trickle(head, every: 1, within: 12) }
        let (quiet, trickling) = await (idleClosed, slowClosed)
        // Closed after the 2 s timeout, not the 12 s the test waits (a 1 s margin for a busy machine).
        #expect(quiet.map { $0 < 4 } == true, "the idle connection was closed after \(String(describing: quiet)) s")
        #expect(
            trickling.map { $0 < 4 } == true, "the trickling head was closed after \(String(describing: trickling)) s")

        // A client that sends its request at once is still answered.
        #expect(try await LiveClient.plain.send(server.baseURL + "/healthz").0 == 200)
        await live.finish()
    }

    @Test func aBodyTricklingAtOneBytePerSecondIsClosedWithinTheBodyTimeout() async throws {
        let live = try await LiveFixture.start(["--body-timeout", "2", "--idle-timeout", "30"])
        defer { Task { await live.finish() } }
        let (server, token) = (live.server, live.token)

        let connection = try Self.syncOf100Bytes(port: server.port, token: token, starting: "")
        let closed = await onThread {
            connection.trickle(Array(repeating: UInt8(ascii: " "), count: 100), every: 1, within: 15)
        }
        #expect(closed.map { $0 < 5 } == true, "the trickling body was closed after \(String(describing: closed)) s")
        await live.finish()
    }

    @Test func healthzAnswersWhileOneClientHoldsThousandsOfIdleConnections() async throws {
        let live = try await LiveFixture.start(["--max-connections-per-address", "200"])
        defer { Task { await live.finish() } }
        let server = live.server
        // The server gets a small descriptor limit, so thousands of connections would exhaust it.
        let limited = try ServerProcess.command(
            ["--pid", String(server.processIdentifier), "--nofile=512:512"],
            executable: URL(fileURLWithPath: "/usr/bin/prlimit"))
        try #require(limited.status == 0, "\(limited.err)")

        // Another loopback address is another client: it opens 2,000 connections and sends nothing.
        var held: [RawConnection] = []
        for _ in 0..<2000 { held.append(try RawConnection(port: server.port, from: "127.0.0.2", waiting: false)) }
        defer { held.removeAll() }

        // Without the cap the descriptors run out and /healthz never answers: the send's 10 s
        // time-out is the bound (issue 33's finding was "time out (10 s)"). A tighter one timed
        // the machine instead: a loaded run answered in 5.4 s.
        let (status, _) = try await LiveClient.plain.send(server.baseURL + "/healthz", timeout: .seconds(10))
        #expect(status == 200)
        #expect(server.log.contains("per-address connection cap reached: 127.0.0.2"))
        withExtendedLifetime(held) {}
        await live.finish()
    }

    @Test func replayingConflictsOfALargeItemAnswersWithinThePageLimitAndStoresNoCopies() async throws {
        let live = try await LiveFixture.start(["--rate-limit", "0"])
        defer { Task { await live.finish() } }
        let (server, token, db) = (live.server, live.token, live.db)
        let device = Make.id()
        let item = Make.id()
        _ = try await LiveClient.plain.round(
            server.baseURL, token: token,
            SyncRequest(
                device: device, cursor: nil,
                ops: [Make.create(item, title: "big", [.body: .string(String(repeating: "x", count: 1_000_000))])]))
        func storedBytes() throws -> Int {
            try [db, db + "-wal"].reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
            }
        }
        let before = try storedBytes()

        // 40 one-op requests that conflict with the 1 MB item: each answer carries it once.
        var conflicts: [Op] = []
        for _ in 0..<40 {
            let op = Make.update(item, baseRev: 0, [.title: (.string("not it"), .string("mine"))])
            let answer = try await LiveClient.plain.round(
                server.baseURL, token: token, SyncRequest(device: device, cursor: nil, ops: [op]))
            #expect(answer.results.map(\.status) == [.conflict])
            conflicts.append(op)
        }
        let grown = try storedBytes() - before
        #expect(grown < 4 << 20, "the database grew by \(grown) bytes for 40 conflicts")

        // One request replaying all 40: the answer stays within the 4 MiB page limit.
        let (status, body) = try await LiveClient.plain.sync(
            server.baseURL, token: token, SyncRequest(device: device, cursor: nil, ops: conflicts))
        #expect(status == 200)
        #expect(body.count <= (4 << 20) + (64 << 10), "the replay answer is \(body.count) bytes")
        let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(body))
        #expect(answer.results.count == 40)
        #expect(answer.results.contains { $0.status == .conflict && $0.current?.title == "big" })
        await live.finish()
    }

    @Test func aBodyCutShortOfItsContentLengthAnswers400() async throws {
        let live = try await LiveFixture.start([])
        defer { Task { await live.finish() } }
        let (server, token) = (live.server, live.token)

        let connection = try Self.syncOf100Bytes(port: server.port, token: token, starting: #"{"protocol":1"#)
        let answer = await onThread { connection.halfCloseAndRead(within: 15) }
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        #expect(answer.contains("declared length"))
        #expect(!server.log.contains("unexpected error"))
        await live.finish()
    }

    @Test func unauthenticatedRequestsAreLimitedPerAddressAndMetricsAskForTheirToken() async throws {
        let metricsToken = "metrics-" + UUID().uuidString
        // One request per 100 s after the burst of 20: however slow the machine, the 40 below
        // cannot earn the address another one.
        let live = try await LiveFixture.start(["--address-rate-limit", "0.01", "--metrics-token", metricsToken])
        defer { Task { await live.finish() } }
        let (server, token) = (live.server, live.token)
        let request = SyncRequest(device: Make.id(), cursor: nil)

        #expect(try await LiveClient.plain.send(server.baseURL + "/metrics").0 == 401)
        let (status, body) = try await LiveClient.plain.send(server.baseURL + "/metrics", token: metricsToken)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("quire_"))

        var statuses: [Int] = []
        for _ in 0..<40 {
            statuses.append(try await LiveClient.plain.sync(server.baseURL, token: "qt_wrong", request).0)
        }
        #expect(statuses.prefix(15).allSatisfy { $0 == 401 })
        #expect(statuses.suffix(10).allSatisfy { $0 == 429 }, "\(statuses)")
        // The address's guesses do not lock its user out: a valid token still syncs.
        #expect(try await LiveClient.plain.sync(server.baseURL, token: token, request).0 == 200)
        #expect(try await LiveClient.plain.send(server.baseURL + "/healthz").0 == 429)

        await live.finish()
    }

    @Test func metricsCanListenOnAnAddressOfTheirOwn() async throws {
        let live = try await LiveFixture.start(["--metrics-listen", "127.0.0.1:0"])
        defer { Task { await live.finish() } }
        let server = live.server
        var port: Int?
        await suspendUntil(timeout: 30) {
            port = server.log.range(of: #"metrics on http://127\.0\.0\.1:\d+"#, options: .regularExpression).map {
                Int(server.log[$0].split(separator: ":").last ?? "") ?? 0
            }
            return port != nil
        }
        let metricsPort = try #require(port)
        #expect(try await LiveClient.plain.send(server.baseURL + "/metrics").0 == 404)
        #expect(try await LiveClient.plain.send("http://127.0.0.1:\(metricsPort)/metrics").0 == 200)
        await live.finish()
    }

    @Test func anAnswerNobodyReadsIsDroppedWithinTheWriteTimeout() async throws {
        let live = try await LiveFixture.start(["--write-timeout", "2", "--rate-limit", "0"])
        defer { Task { await live.finish() } }
        let (server, token) = (live.server, live.token)
        // A snapshot page of about 5 MiB: more than the kernel buffers between the two ends hold.
        let body = String(repeating: "y", count: 1_000_000)
        for _ in 0..<5 {
            _ = try await LiveClient.plain.round(
                server.baseURL, token: token,
                SyncRequest(
                    device: Make.id(), cursor: nil, ops: [Make.create(Make.id(), title: "big", [.body: .string(body)])])
            )
        }

        let reader = try RawConnection(port: server.port, receiveBuffer: 4096)
        reader.send(
            Array(
                "GET /v1/snapshot?limit=5000 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8
            ))
        // The client reads nothing for 6 s (3 write timeouts), then reads what is left.
        let (early, _) = await onThread { reader.read(within: 0) }
        try await Task.sleep(for: .seconds(6))
        let (rest, ended) = await onThread { reader.read(within: 20) }
        let received = early.count + rest.count
        #expect(ended, "the connection was still open")
        #expect(received < 5_000_000, "the whole answer (\(received) bytes) waited for a client that did not read")
        await live.finish()
    }
}
