import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import Synchronization
import Testing

@testable import QuireSync

/// Which of the ledger's writes may skip their own disk flush: only what comes back by itself
/// after a power cut (a pulled page, acknowledgements, bookkeeping, the log). A person's
/// decision, and ops marked as sent before they go out, are always synced.
@Suite struct SyncDurabilityTests {
    /// Records the durability of every write, then writes to memory.
    final class RecordingStorage: SyncStorage {
        let inner: InMemorySyncStorage
        let writes = Mutex<[CommitDurability]>([])

        init(_ inner: InMemorySyncStorage) { self.inner = inner }

        func write<T>(_ durability: CommitDurability, _ body: (any SyncTransaction) throws -> T) throws -> T {
            writes.withLock { $0.append(durability) }
            return try inner.write(durability, body)
        }

        func read<T>(_ body: (any SyncTransaction) throws -> T) throws -> T { try inner.read(body) }

        /// The durabilities written by `body`, in order.
        func durabilities(of body: () throws -> Void) rethrows -> [CommitDurability] {
            writes.withLock { $0 = [] }
            try body()
            return writes.withLock { $0 }
        }
    }

    @Test func aRoundsWritesAreReplayableButTakingABatchAndAPersonsDecisionsAreSynced() throws {
        let ids = LiveIDs()
        let memory = InMemorySyncStorage(deviceID: ids.next())
        let item = Item(id: ids.next(), title: "A note", createdAt: Date())
        let opID = ids.next()
        memory.create(item, opID: opID, now: Date())
        let storage = RecordingStorage(memory)
        let ledger = SyncLedger(storage: storage, now: { Date() }, newID: { ids.next($0) })

        let round = try storage.durabilities {
            try ledger.logRoundStart("sync started")
            let sent = try ledger.takeBatch(limit: 10)
            #expect(sent.map(\.id) == [opID])
            _ = try ledger.applyResults([OpResult(op: opID, status: .applied, rev: 1)], sent: sent)
            _ = try ledger.applyPage(
                SyncResponse(results: [], changes: [], cursor: "1", more: false, epoch: "e", stateHash: ""))
            try ledger.returnInFlight(serverFault: false, reason: nil)
            try ledger.deadLetter(opID: opID, item: item.id, reason: "too large")
            try ledger.finishResync(cursor: "2", epoch: "e2")
            try ledger.recordSuccess()
            try ledger.log(.retry, "the server answered 502")
        }
        // Taking a batch is synced: the ops are then sent, and must never look unsent again.
        #expect(round.count == 9)
        #expect(round[1] == .synced)
        #expect(round.enumerated().allSatisfy { index, durability in index == 1 || durability == .replayable })

        let decisions = try storage.durabilities {
            _ = try ledger.resolve(item.id, keeping: .local)
            _ = try ledger.resolve(item.id, body: "written by hand")
            _ = try ledger.retryDeadLetter(opID, item: item.id)
            _ = try ledger.discardDeadLetter(opID, item: item.id)
        }
        #expect(decisions == [.synced, .synced, .synced, .synced])
    }
}
