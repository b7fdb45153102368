import Foundation
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
        var storedCursor: @Sendable () -> String? = { nil }

        init(base: any SyncTransport) { self.base = base }

        func beforeRequest(_ number: Int, _ action: @escaping @Sendable () -> Void) {
            lock.withLock { before[number] = action }
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
            lock.withLock { answers.append(exchange.value) }
            return exchange
        }

        func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
            try await base.snapshot(after: after, limit: limit)
        }
    }

    @Test func pagesFollowOneAnotherAndALocalEditMidPullIsPushed() async throws {
        let server = try SyncTestServer()
        let token = try await server.addUser("ann")
        try await server.start()
        defer { Task { await server.stop() } }

        // 60 items on the server, written by another device.
        let writer = try StoreDevice(server: server, token: token)
        for index in 0..<60 { try writer.database.create(NewItem(title: "Item \(index)")) }
        #expect(await writer.sync() == .caughtUp)

        // A new device pulls them 7 at a time; before its 4th request (one may already be
        // on its way, asked for ahead), something is typed on it.
        let environment = StoreEnvironment.live
        let database = try AppDatabase.temporary(environment: environment)
        let transport = RecordingTransport(
            base: HTTPSyncTransport(baseURL: server.baseURL, token: token, timeout: 10))
        var limits = Device.testLimits
        limits.pageSize = 7
        let engine = SyncEngine(
            ledger: SyncLedger(storage: try database.syncStorage(), now: environment.now, newID: environment.newID),
            limits: limits, lock: SyncLock(path: SyncLock.path(forDatabase: database.path)), connect: { transport })
        transport.storedCursor = { try? database.syncMeta().cursor }
        let typed = LockedID()
        transport.beforeRequest(4) {
            typed.set(try? database.create(NewItem(title: "Typed during the pull")).id)
        }
        #expect(await engine.runToCompletion() == .caughtUp)

        let (requests, answers, stored) = transport.log
        #expect(requests.count >= 9, "60 changes in pages of 7")
        // A request starts either from the store's cursor, or (asked ahead) from the cursor of
        // the answer just received, before that page was applied. Never from anywhere else.
        var askedAhead = 0
        for index in 1..<requests.count {
            if requests[index].cursor != stored[index] {
                askedAhead += 1
                #expect(answers.map(\.cursor).contains(requests[index].cursor ?? ""), "request \(index + 1)")
                #expect(requests[index].ops.isEmpty, "only pulls are asked ahead")
            }
        }
        #expect(askedAhead >= 3, "pages were asked for while the last one was applied")
        #expect(try database.syncMeta().cursor == answers.last?.cursor)
        #expect(try database.count(matching: .live) == 61)
        let id = try #require(typed.value)
        #expect(try database.item(id)?.syncState == .synced)
        #expect(try database.outboxCounts().waiting == 0)
        #expect(await writer.sync() == .caughtUp)
        #expect(try writer.item(id)?.title == "Typed during the pull")
    }

    final class LockedID: @unchecked Sendable {
        private let lock = NSLock()
        private var id: String?
        var value: String? { lock.withLock { id } }
        func set(_ new: String?) { lock.withLock { id = new } }
    }
}
