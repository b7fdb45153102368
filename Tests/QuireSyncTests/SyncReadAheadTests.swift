import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireSync

/// A long pull asks for its next page while it applies the last one. That must never skip or
/// repeat a page, nor hold back a local change made in the middle of it.
@Suite(.serialized) struct SyncReadAheadTests {
    /// Records every request, and can run a local write just before a given request goes out.
    final class RecordingTransport: SyncTransport, @unchecked Sendable {
        let base: any SyncTransport
        private let lock = NSLock()
        private var requests: [SyncRequest] = []
        private var answers: [SyncResponse] = []
        /// For each request: the cursor the store held when it went out.
        private var stored: [String?] = []
        private var before: [Int: @Sendable () -> Void] = [:]
        private var after: [Int: @Sendable () -> Void] = [:]
        var storedCursor: @Sendable () -> String? = { nil }

        init(base: any SyncTransport) { self.base = base }

        func beforeRequest(_ number: Int, _ action: @escaping @Sendable () -> Void) {
            lock.withLock { before[number] = action }
        }

        func afterAnswer(_ number: Int, _ action: @escaping @Sendable () -> Void) {
            lock.withLock { after[number] = action }
        }

        var log: (requests: [SyncRequest], answers: [SyncResponse], stored: [String?]) {
            lock.withLock { (requests, answers, stored) }
        }

        func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
            let cursorNow = storedCursor()
            let action = lock.withLock { () -> (@Sendable () -> Void)? in
                requests.append(request)
                stored.append(cursorNow)
                return before[requests.count]
            }
            action?()
            let exchange = try await base.sync(request)
            let then = lock.withLock { () -> (@Sendable () -> Void)? in
                answers.append(exchange.value)
                return after[answers.count]
            }
            then?()
            return exchange
        }

        func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
            try await base.snapshot(after: after, limit: limit)
        }
    }

    @Test func pagesFollowOneAnotherAndALocalEditMidPullIsPushed() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }

        // 60 items on the server, written by another device.
        let writer = try StoreDevice(server: server, token: token)
        for index in 0..<60 { try writer.database.create(NewItem(title: "Item \(index)")) }
        #expect(await writer.sync() == .caughtUp)

        // A new device pulls them 7 at a time.
        let environment = StoreEnvironment.live
        let database = try AppDatabase.temporary(environment: environment)
        let transport = RecordingTransport(
            base: HTTPSyncTransport(
                baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() }))
        var limits = Device.testLimits
        limits.pageSize = 7
        let engine = SyncEngine(
            ledger: SyncLedger(storage: database.syncStorage(), now: environment.now, newID: environment.newID),
            limits: limits, lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: environment.now),
            connect: { transport })
        transport.storedCursor = { try? database.syncMeta().cursor }

        // When the first answer comes back, another connection takes the database's write lock,
        // so the engine cannot apply that page. Only a request asked ahead can reach the server
        // meanwhile; it lets the lock go (so does a deadline, when none comes: 9 s, under the
        // 10 s the engine waits for the lock, so that a loaded machine has time to send it).
        // The first request is never one asked ahead, so its answer is the one being applied.
        var unsafe = Configuration()
        unsafe.allowsUnsafeTransactions = true
        unsafe.busyMode = .timeout(5)
        let blocker = WriteBlocker(try DatabaseQueue(path: database.path, configuration: unsafe))
        transport.afterAnswer(1) { try? blocker.hold(releasingAfter: 9) }
        transport.beforeRequest(2) { blocker.sawRequestWhileHeld() }
        // Before the 5th request, something is typed on the device.
        let typed = LockedID()
        transport.beforeRequest(5) {
            typed.set(try? database.create(NewItem(title: "Typed during the pull")).id)
        }
        #expect(await engine.runToCompletion() == .caughtUp)
        #expect(blocker.requestCameWhileHeld, "the next page was asked for while the last one waited to be applied")

        let (requests, answers, stored) = transport.log
        #expect(requests.count >= 9, "60 changes in pages of 7")
        // A request starts either from the store's cursor, or (asked ahead) from the cursor of
        // an answer already received, before that page was applied; and only pulls go ahead.
        for index in 1..<requests.count where requests[index].cursor != stored[index] {
            #expect(answers.map(\.cursor).contains(requests[index].cursor ?? ""), "request \(index + 1)")
            #expect(requests[index].ops.isEmpty, "only pulls are asked ahead")
        }
        #expect(try database.syncMeta().cursor == answers.last?.cursor)
        #expect(try database.count(matching: .live) == 61)
        let id = try #require(typed.value)
        #expect(try database.item(id)?.syncState == .synced)
        #expect(try database.outboxCounts().waiting == 0)
        #expect(await writer.sync() == .caughtUp)
        #expect(try writer.item(id)?.title == "Typed during the pull")
    }

    /// Holds a database's write lock from a connection of its own.
    final class WriteBlocker: @unchecked Sendable {
        private let queue: DatabaseQueue
        private let lock = NSLock()
        private var holding = false
        private(set) var requestCameWhileHeld = false

        init(_ queue: DatabaseQueue) { self.queue = queue }

        func hold(releasingAfter deadline: TimeInterval) throws {
            try queue.writeWithoutTransaction { try $0.beginTransaction(.immediate) }
            lock.withLock { holding = true }
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { self.release() }
        }

        func sawRequestWhileHeld() {
            lock.withLock { if holding { requestCameWhileHeld = true } }
            release()
        }

        private func release() {
            let wasHolding = lock.withLock { () -> Bool in
                defer { holding = false }
                return holding
            }
            if wasHolding { try? queue.writeWithoutTransaction { try $0.commit() } }
        }
    }

    final class LockedID: @unchecked Sendable {
        private let lock = NSLock()
        private var id: String?
        var value: String? { lock.withLock { id } }
        func set(_ new: String?) { lock.withLock { id = new } }
    }
}
