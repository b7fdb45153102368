import Foundation
import Hummingbird
import QuireProtocol
import QuireTestSupport
import Synchronization
import Testing

@testable import QuireSync

/// The client side of live sync: what `HintFollower` does with a real server, an older server
/// without the endpoint, a stream of garbage and a burst of hints.
@Suite(.serialized) struct HintFollowerTests {
    /// What a follower did, for the test to read.
    final class Record: Sendable {
        let moves = Atomic<Int>(0)
        let states = Mutex<[HintState]>([])
    }

    /// A number several tasks read and write.
    final class Counter: Sendable {
        let value = Atomic<Int64>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int64 { value.load(ordering: .relaxed) }
    }

    func follower(_ url: String, token: String = "qt_token", cursor: @escaping @Sendable () -> Int64? = { nil })
        -> (HintFollower, Record)
    {
        let record = Record()
        let follower = HintFollower(
            connect: { SyncRemote(url: url, token: token) }, cursorSeq: cursor,
            onMove: { record.moves.add(1, ordering: .relaxed) },
            onState: { state in record.states.withLock { $0.append(state) } })
        return (follower, record)
    }

    /// A small HTTP server of the test's own on a loopback port, answering `/v1/hints` as told.
    func stub(
        _ answer: @escaping @Sendable () -> Response?, connections: Counter? = nil,
        _ body: (String) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("/v1/hints") { _, _ -> Response in
            connections?.add()
            return answer() ?? Response(status: .notFound)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let task = Task { try await app.runService() }
        defer { task.cancel() }
        var port = 0
        for await bound in ports {
            port = bound
            break
        }
        try await body("http://127.0.0.1:\(port)")
    }

    @Test func aServerWithoutTheEndpointMeansPollingNotErrors() async throws {
        try await stub({ nil }) { url in
            let (follower, record) = follower(url)
            follower.start()
            defer { follower.stop() }
            #expect(
                await suspendUntil(timeout: asyncWorkDeadline) {
                    !follower.current.isLive && follower.current != .polling(reason: "not started")
                })
            #expect(follower.current == .polling(reason: "the server has no live hints (an older quire-server)"))
            #expect(record.moves.load(ordering: .relaxed) == 0)
        }
    }

    @Test func aStreamOfGarbageIsDroppedAndConnectedAgain() async throws {
        let connections = Counter()
        let garbage = { @Sendable () -> Response? in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "event: feed\ndata: {\"seq\":\"lots\"}\n\n")))
        }
        try await stub(garbage, connections: connections) { url in
            let (follower, record) = follower(url)
            follower.start()
            defer { follower.stop() }
            #expect(await suspendUntil(timeout: asyncWorkDeadline) { connections.count >= 2 }, "it connects again")
            #expect(record.moves.load(ordering: .relaxed) == 0, "garbage never starts a pull")
            // A plain sentence on the screen; what the parser said is kept for the detail.
            if case .polling(let reason, let detail) = follower.current {
                #expect(reason == "the server sent something unreadable", "\(reason)")
                #expect(detail != nil)
            }
        }
    }

    @Test func hintsFromARealServerStartPullsAndABurstStartsOnlyAFew() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let cursor = Counter()
        let (follower, record) = follower(server.baseURL, token: token) { cursor.count }
        follower.start()
        defer { follower.stop() }
        #expect(await suspendUntil(timeout: asyncWorkDeadline) { follower.current.isLive })
        #expect(record.moves.load(ordering: .relaxed) == 0, "nothing moved yet")

        let writer = Device("writer", server: server, token: token)
        writer.create("One")
        #expect(await writer.sync() == .caughtUp)
        #expect(await suspendUntil(timeout: asyncWorkDeadline) { record.moves.load(ordering: .relaxed) == 1 })
        cursor.add()

        // A burst: two hundred pushes as fast as the server takes them.
        let started = ContinuousClock.now
        for index in 0..<200 {
            writer.create("Burst \(index)")
            #expect(await writer.sync() == .caughtUp)
        }
        let took = ContinuousClock.now - started
        try await Task.sleep(for: .milliseconds(600))
        let pulls = record.moves.load(ordering: .relaxed) - 1
        let ceiling = Int(took / HintFollower.pullGap) + 2
        print("200 writes in \(took): \(pulls) pulls asked for")
        #expect(pulls >= 1 && pulls <= ceiling, "\(pulls) pulls for 200 writes in \(took)")
    }
}
