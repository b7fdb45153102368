import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import QuireProtocol
import QuireTestSupport
import Synchronization
import Testing

@testable import QuireServer

/// One hint stream read by a real HTTP client: the signals arrive in `signals` as they come.
final class HintReader: Sendable {
    private final class State: Sendable {
        let mutex = Mutex<(signals: [HintStreamParser.Signal], status: Int?, ended: Bool, garbage: Bool)>(
            ([], nil, false, false))
    }
    private let box = State()
    private let task: Task<Void, Never>
    /// Streams stay open: the shared client's few connections per host would queue them.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    init(_ base: String, token: String) {
        let box = box
        task = Task {
            var request = HTTPClientRequest(url: base + SyncProtocol.hintsPath)
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            do {
                let response = try await HintReader.client.execute(request, timeout: .seconds(600))
                box.mutex.withLock { $0.status = Int(response.status.code) }
                var parser = HintStreamParser()
                for try await chunk in response.body {
                    let signals = try parser.read(chunk.readableBytesView)
                    box.mutex.withLock { $0.signals += signals }
                }
            } catch is HintStreamParser.Garbage {
                box.mutex.withLock { $0.garbage = true }
            } catch {}
            box.mutex.withLock { $0.ended = true }
        }
    }

    deinit { task.cancel() }

    var signals: [HintStreamParser.Signal] { box.mutex.withLock { $0.signals } }
    var feeds: [Int64] {
        signals.compactMap {
            if case .feed(let seq) = $0 { return seq }
            return nil
        }
    }
    var status: Int? { box.mutex.withLock { $0.status } }
    var ended: Bool { box.mutex.withLock { $0.ended } }
    var sawGarbage: Bool { box.mutex.withLock { $0.garbage } }

    func cancel() { task.cancel() }
}

/// `GET /v1/hints` against a real `quire-server` process: hints of the token's user only, at
/// once, coalesced, bounded, closed when the token is revoked; and across two processes over
/// one PostgreSQL database.
@Suite(.serialized) struct HintTests {
    static func user(_ name: String, db: String) throws -> String {
        let added = try ServerProcess.command(["user", "add", name, "--db", db])
        try #require(added.status == 0, "\(added.err)")
        return added.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func push(_ base: String, token: String, creates count: Int = 1) async throws -> SyncResponse {
        try await LiveClient.plain.round(
            base, token: token,
            SyncRequest(
                device: Make.id(), cursor: nil, ops: (0..<count).map { _ in Make.create(Make.id(), title: "x") }))
    }

    @Test func aPushHintsEveryStreamOfItsUserAtOnceAndNoOtherUser() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let ann = try Self.user("ann", db: db)
        let bob = try Self.user("bob", db: db)
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0"])
        defer { Task { await server.stop() } }

        let laptop = HintReader(server.baseURL, token: ann)
        let phone = HintReader(server.baseURL, token: ann)
        let other = HintReader(server.baseURL, token: bob)
        defer { for reader in [laptop, phone, other] { reader.cancel() } }
        try #require(
            await suspendUntil(timeout: asyncWorkDeadline) { [laptop, phone, other].allSatisfy { $0.feeds == [0] } })
        #expect(laptop.status == 200)

        _ = try await Self.push(server.baseURL, token: ann)
        try #require(
            await suspendUntil(timeout: asyncWorkDeadline) { laptop.feeds == [0, 1] && phone.feeds == [0, 1] })
        _ = try await Self.push(server.baseURL, token: ann, creates: 3)
        try #require(await suspendUntil(timeout: asyncWorkDeadline) { laptop.feeds.last == 4 && phone.feeds.last == 4 })
        #expect(other.feeds == [0], "bob hears nothing of ann's writes")

        let (status, metrics) = try await LiveClient.plain.send(server.baseURL + SyncProtocol.metricsPath)
        #expect(status == 200)
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(text.contains("quire_hint_streams 3"), "\(text)")
        #expect(text.contains("quire_hints_sent_total"))
    }

    @Test func hintsOfConcurrentWritersOnlyMoveForwardAndEndAtTheLastWrite() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let ann = try Self.user("ann", db: db)
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0"])
        defer { Task { await server.stop() } }
        let reader = HintReader(server.baseURL, token: ann)
        defer { reader.cancel() }
        try #require(await suspendUntil(timeout: asyncWorkDeadline) { reader.feeds == [0] })

        // 2,000 items from eight writers at once, in pushes of ten.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<25 { _ = try await Self.push(server.baseURL, token: ann, creates: 10) } }
            }
            try await group.waitForAll()
        }
        try #require(await suspendUntil(timeout: asyncWorkDeadline) { reader.feeds.last == 2_000 })
        #expect(reader.feeds == reader.feeds.sorted(), "hints only move forward")
        #expect(reader.feeds.count <= 201, "at most one hint per push")
        #expect(!reader.sawGarbage)
    }

    @Test func streamsOfARevokedTokenCloseAtOnceAndLimitsAreKept() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let ann = try Self.user("ann", db: db)
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0"])
        defer { Task { await server.stop() } }

        var readers = (0..<16).map { _ in HintReader(server.baseURL, token: ann) }
        defer { for reader in readers { reader.cancel() } }
        try #require(await suspendUntil(timeout: asyncWorkDeadline) { readers.allSatisfy { $0.feeds == [0] } })
        // One stream per device is the use; a seventeenth for one user is refused.
        let (status, body) = try await LiveClient.plain.send(
            server.baseURL + SyncProtocol.hintsPath, token: ann, timeout: .seconds(10))
        #expect(status == 429, "\(String(decoding: body, as: UTF8.self))")
        let (unauthorized, _) = try await LiveClient.plain.send(server.baseURL + SyncProtocol.hintsPath, token: "qt_x")
        #expect(unauthorized == 401)

        let revoked = try ServerProcess.command(["token", "revoke", "ann", "--db", db])
        #expect(revoked.status == 0, "\(revoked.err)")
        let start = ContinuousClock.now
        try #require(await suspendUntil(timeout: asyncWorkDeadline) { readers.allSatisfy(\.ended) })
        #expect(ContinuousClock.now - start < .seconds(3), "closed within a second or two of the revoke")
        readers.removeAll()
    }

    @Test(.disabled(if: StoreKind.postgresURL == nil, StoreKind.skipMessage))
    func aWriteThroughOneServerHintsADeviceOnAnother() async throws {
        try await StoreKind.withFreshPostgresDatabase(prefix: "quire_hint_") { url in
            let added = try ServerProcess.command(["user", "add", "ann", "--postgres", url])
            try #require(added.status == 0, "\(added.err)")
            let token = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
            let first = try await ServerProcess(serve: ["--postgres", url, "--rate-limit", "0"])
            let second = try await ServerProcess(serve: ["--postgres", url, "--rate-limit", "0"])

            let onSecond = HintReader(second.baseURL, token: token)
            defer { onSecond.cancel() }
            try #require(await suspendUntil(timeout: asyncWorkDeadline) { onSecond.feeds == [0] })
            _ = try await Self.push(first.baseURL, token: token)
            try #require(await suspendUntil(timeout: asyncWorkDeadline) { onSecond.feeds == [0, 1] })

            onSecond.cancel()
            await first.stop()
            await second.stop()
        }
    }
}
