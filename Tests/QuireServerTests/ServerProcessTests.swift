import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import PostgresNIO
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

@testable import QuireServer

/// The real `quire-server` binary on loopback, where the transport and the process matter.
@Suite(.serialized) struct ServerProcessTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-server-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func userCommandsPrintATokenOnceStoreOnlyItsHashAndRevokeIt() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path

        let added = try ServerProcess.command(["user", "add", "ann", "--db", db])
        #expect(added.status == 0)
        let token = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("qt_") && token.count == 46 && !token.contains("\n"))
        #expect(added.err.contains("only once"))

        let again = try ServerProcess.command(["user", "add", "ann", "--db", db])
        #expect(again.status == 1)
        #expect(again.err.split(separator: "\n").count == 1)
        #expect(again.out.isEmpty)

        let list = try ServerProcess.command(["user", "list", "--db", db])
        #expect(list.status == 0)
        #expect(list.out.contains("ann"))
        #expect(!list.out.contains(token))

        // Only the hash is stored: the token's text is nowhere in the database files, its hash is.
        var holdingHash = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file) holds the token")
            if bytes.range(of: Data(Tokens.hash(token).utf8)) != nil { holdingHash += 1 }
        }
        #expect(holdingHash > 0)

        let server = try await ServerProcess(serve: ["--db", db])
        defer { Task { await server.stop() } }
        let request = SyncRequest(device: Make.id(), cursor: nil)
        #expect(try await LiveClient.plain.sync(server.baseURL, token: token, request).0 == 200)

        let revoked = try ServerProcess.command(["token", "revoke", "ann", "--db", db])
        #expect(revoked.status == 0)
        #expect(revoked.out.contains("revoked 1 token"))
        #expect(try await LiveClient.plain.sync(server.baseURL, token: token, request).0 == 401)

        let missing = try ServerProcess.command(["token", "revoke", "nobody", "--db", db])
        #expect(missing.status == 2)
        let fresh = try ServerProcess.command(["token", "add", "ann", "--db", db]).out.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(try await LiveClient.plain.sync(server.baseURL, token: fresh, request).0 == 200)
        await server.stop()
    }

    @Test func tokensPerDeviceAreListedAndRevokedAloneAndUserRemoveAsksFirst() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        #expect(try ServerProcess.command(["user", "add", "ann", "--db", db]).status == 0)
        func issue(_ name: String) throws -> String {
            let added = try ServerProcess.command(["token", "add", "ann", "--name", name, "--db", db])
            try #require(added.status == 0, "\(added.err)")
            return added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let laptop = try issue("laptop")
        let phone = try issue("phone")
        let again = try ServerProcess.command(["token", "add", "ann", "--name", "laptop", "--db", db])
        #expect(again.status == 1 && again.err.contains("already has a token named 'laptop'"))
        let list = try ServerProcess.command(["token", "list", "ann", "--db", db])
        #expect(list.status == 0 && list.out.contains("laptop") && list.out.contains("phone"))
        #expect(!list.out.contains(laptop) && !list.out.contains(Tokens.hash(laptop)))

        let server = try await ServerProcess(serve: ["--db", db])
        defer { Task { await server.stop() } }
        let request = SyncRequest(device: Make.id(), cursor: nil)
        let revoked = try ServerProcess.command(["token", "revoke", "ann", "--name", "laptop", "--db", db])
        #expect(revoked.status == 0 && revoked.out.contains("revoked 1 token"))
        #expect(try await LiveClient.plain.sync(server.baseURL, token: laptop, request).0 == 401)
        #expect(try await LiveClient.plain.sync(server.baseURL, token: phone, request).0 == 200)
        await server.stop()

        let declined = try ChildRun.run(
            try ServerProcess.binary.path, ["user", "remove", "ann", "--db", db], stdin: "bob\n")
        #expect(declined.status == 1 && declined.stderr.contains("nothing removed"))
        #expect(try ServerProcess.command(["user", "list", "--db", db]).out.contains("ann"))
        let removed = try ServerProcess.command(["user", "remove", "ann", "--yes", "--db", db])
        #expect(removed.status == 0, "\(removed.err)")
        #expect(!(try ServerProcess.command(["user", "list", "--db", db]).out.contains("ann")))
        #expect(try ServerProcess.command(["token", "list", "ann", "--db", db]).status == 2)
    }

    @Test func gracefulShutdownFinishesRequestsInFlightAndWritesNothingHalfway() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let token = try ServerProcess.command(["user", "add", "ann", "--db", db]).out.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0"])

        // Many batches at once; SIGTERM as soon as the first answer arrives, while others are
        // still being applied or waiting.
        let batches = (0..<24).map { _ in (0..<200).map { _ in Make.create(Make.id(), title: "batch item") } }
        let firstAnswer = SharedCounter()
        // Requests still queued when the server closes must fail at once, not retry connecting.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = LiveClient(client: http)
        let outcomes = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for (index, ops) in batches.enumerated() {
                group.addTask {
                    do {
                        let (status, body) = try await client.sync(
                            server.baseURL, token: token,
                            SyncRequest(device: Make.id(), cursor: nil, limit: 1, ops: ops))
                        if status == 200 {
                            // A 200 is always a whole answer.
                            let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(body))
                            #expect(answer.results.count == ops.count)
                        }
                        firstAnswer.increment()
                        return (index, status)
                    } catch {
                        return (index, nil)
                    }
                }
            }
            await suspendUntil(timeout: 60) { firstAnswer.value != 0 }
            server.signal(SIGTERM)
            var outcomes: [Int: Int?] = [:]
            for try await (index, status) in group { outcomes[index] = status }
            return outcomes
        }
        try await http.shutdown()
        #expect(try await server.waitForExit() == 0)
        #expect(server.log.contains("stopped"))
        let answered = outcomes.filter { $0.value == 200 }.map(\.key)
        #expect(!answered.isEmpty)
        #expect(outcomes.values.allSatisfy { $0 == nil || $0 == 200 }, "\(outcomes)")

        // After a restart every batch is all there or not there at all; every answered one is there.
        let restarted = try await ServerProcess(serve: ["--db", db])
        defer { Task { await restarted.stop() } }
        let present = try await LiveClient.plain.liveItemIDs(restarted.baseURL, token: token)
        for (index, ops) in batches.enumerated() {
            let count = ops.filter { present.contains($0.item) }.count
            #expect(count == 0 || count == ops.count, "batch \(index) is half written (\(count) of \(ops.count))")
            if answered.contains(index) { #expect(count == ops.count, "answered batch \(index) is missing") }
        }
        await restarted.stop()
    }

    @Test func servesHTTPSWithTheGivenCertificateOverTLS12OrNewerOnly() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cert = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let openssl = try SpawnedProcess(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj",
                "/CN=127.0.0.1",
            ])
        try #require(openssl.terminationStatus == 0)

        let server = try await ServerProcess(serve: [
            "--db", folder.appendingPathComponent("s.db").path, "--tls-cert", cert, "--tls-key", key,
        ])
        defer { Task { await server.stop() } }
        #expect(server.baseURL.hasPrefix("https://"))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let (status, body) = try await LiveClient(client: client).send(server.baseURL + "/healthz")
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":"ok"}"#)
        // Over TLS answers tell browsers to keep to HTTPS; no answer is kept by a cache.
        let headers = try await client.execute(
            HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(30)
        )
        .headers
        #expect(headers["Strict-Transport-Security"].first?.hasPrefix("max-age=") == true)
        #expect(headers["Cache-Control"] == ["no-store"])
        #expect(headers["X-Content-Type-Options"] == ["nosniff"])
        try await client.shutdown()

        // TLS 1.1 is refused, 1.2 taken. The client is told to allow old protocols (security
        // level 0), so only the server can refuse.
        func handshake(_ version: String) throws -> (Int32, String) {
            let run = try ChildRun.run(
                "/usr/bin/openssl",
                [
                    "s_client", version, "-cipher", "DEFAULT:@SECLEVEL=0", "-connect", "127.0.0.1:\(server.port)",
                    "-brief",
                ], stdin: "")
            return (run.status, run.stdout + run.stderr)
        }
        let (old, oldText) = try handshake("-tls1_1")
        #expect(old != 0 && !oldText.contains("Protocol version: TLSv1.1"), "\(oldText)")
        let (current, currentText) = try handshake("-tls1_2")
        #expect(current == 0 && currentText.contains("TLSv1.2"), "\(currentText)")

        let missingKey = try ServerProcess.command([
            "serve", "--db", folder.appendingPathComponent("s.db").path, "--tls-cert", cert,
        ])
        #expect(missingKey.status != 0)
        await server.stop()
    }

    @Test(.disabled(if: StoreKind.postgresURL == nil, StoreKind.skipMessage))
    func twoServerProcessesOnOnePostgreSQLBehaveAsOne() async throws {
        try await StoreKind.withFreshPostgresDatabase(prefix: "quire_live_") { url in
            let added = try ServerProcess.command(["user", "add", "ann", "--postgres", url])
            try #require(added.status == 0, "\(added.err)")
            let token = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
            let first = try await ServerProcess(serve: [
                "--postgres", url, "--rate-limit", "0", "--postgres-connections", "4",
            ])
            let second = try await ServerProcess(serve: [
                "--postgres", url, "--rate-limit", "0", "--postgres-connections", "4",
            ])
            let servers = [first.baseURL, second.baseURL]

            let items = (0..<16).map { _ in Make.id() }
            _ = try await LiveClient.plain.round(
                first.baseURL, token: token,
                SyncRequest(device: Make.id(), cursor: nil, ops: items.map { Make.create($0, title: "start") }))

            // Writers alternate between the two processes, each with its own view of the items.
            let finished = SharedCounter()
            let writers = (0..<4).map { writer in
                Task {
                    defer { finished.increment() }
                    var known: [String: ChangeItem] = [:]
                    var cursor: String?
                    var random = SystemRandomNumberGenerator()
                    for round in 0..<30 {
                        var ops: [Op] = []
                        for item in items.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                            let base = known[item]
                            ops.append(
                                Make.update(
                                    item, baseRev: base?.rev ?? 1,
                                    [.title: (.string(base?.title ?? "start"), .string("w\(writer)r\(round)"))]))
                        }
                        let answer = try await LiveClient.plain.round(
                            servers[round % 2], token: token, SyncRequest(device: Make.id(), cursor: cursor, ops: ops))
                        for change in answer.changes { known[change.id] = change }
                        cursor = answer.cursor
                    }
                }
            }

            // A reader pages with random page sizes, alternating processes, while they write.
            var reader = DeviceModel()
            var revisions: [String: [Int]] = [:]
            var random = SystemRandomNumberGenerator()
            var turn = 0
            func page() async throws -> SyncResponse {
                turn += 1
                let answer = try await LiveClient.plain.round(
                    servers[turn % 2], token: token,
                    SyncRequest(device: reader.id, cursor: reader.cursor, limit: Int.random(in: 1...6, using: &random)))
                for change in answer.changes { revisions[change.id, default: []].append(change.rev) }
                reader.receive(answer)
                return answer
            }
            while finished.value < writers.count { _ = try await page() }
            for writer in writers { try await writer.value }
            var last = try await page()
            while last.more { last = try await page() }

            for (id, seen) in revisions {
                #expect(seen == seen.sorted() && Set(seen).count == seen.count, "item \(id) repeated: \(seen)")
            }
            var fresh = DeviceModel()
            var answer = try await LiveClient.plain.round(
                second.baseURL, token: token, SyncRequest(device: fresh.id, cursor: nil))
            fresh.receive(answer)
            while answer.more {
                answer = try await LiveClient.plain.round(
                    first.baseURL, token: token, SyncRequest(device: fresh.id, cursor: fresh.cursor))
                fresh.receive(answer)
            }
            #expect(reader.items == fresh.items, "the paging reader missed changes")
            #expect(last.stateHash == reader.stateHash)
            #expect(answer.epoch == last.epoch)

            await first.stop()
            await second.stop()
        }
    }
}

/// A server a test starts again on its port gets one the kernel never hands out, so no other
/// test's connection or server can take it between the stop and the restart.
@Suite struct RestartablePortTests {
    @Test func aRestartableServerListensOutsideTheKernelsRangeAndStartsThereAgain() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let server = try await ServerProcess.restartable(serve: ["--db", db])
        let port = server.port
        #expect(!RestartablePort.handedOut.contains(port), "\(port) is in \(RestartablePort.handedOut)")
        await server.stop()
        let again = try await ServerProcess(serve: ["--db", db, "--port", String(port)])
        #expect(again.port == port)
        await again.stop()
    }
}
