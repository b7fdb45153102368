import Foundation
import QuireCore
import QuireStore

/// A `SyncStorage` in memory, for unit tests of the sync logic and for benchmarks that
/// measure the protocol rather than SQLite.
///
/// Transactions are serialized by a lock and roll back when their body throws. Local edits
/// (`create`, `update`, `delete`) follow the store's outbox rules: an update folds into the
/// item's latest op while that op is pending and was never sent.
public final class InMemorySyncStorage: SyncStorage, @unchecked Sendable {
    /// Everything below is guarded by `lock`.
    private let lock = NSRecursiveLock()
    private var state: State

    struct State {
        var position: SyncPosition
        var items: [String: Item] = [:]
        /// The outbox in creation order.
        var ops: [OutboxOp] = []
        var conflicts: [String: ConflictRecord] = [:]
        var history: [HistoryEntry] = []
        var events: [SyncEvent] = []
        var nextSeq: Int64 = 1
    }

    public init(deviceID: String) {
        state = State(position: SyncPosition(deviceID: deviceID))
    }

    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try lock.withLock {
            let saved = state
            do {
                return try body(Transaction(storage: self))
            } catch {
                state = saved
                throw error
            }
        }
    }

    public func read<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try lock.withLock { try body(Transaction(storage: self)) }
    }

    // MARK: - Looking inside (tests)

    public func item(_ id: String) -> Item? { lock.withLock { state.items[id] } }
    public var allItems: [Item] { lock.withLock { state.items.values.sorted { $0.id < $1.id } } }
    public var outbox: [OutboxOp] { lock.withLock { state.ops } }
    public var conflicts: [ConflictRecord] { lock.withLock { state.conflicts.values.sorted { $0.itemID < $1.itemID } } }
    public var history: [HistoryEntry] { lock.withLock { state.history } }
    public var events: [SyncEvent] { lock.withLock { state.events } }
    public var currentPosition: SyncPosition { lock.withLock { state.position } }

    // MARK: - Local edits, as the store makes them

    /// Creates an item locally and queues its `create`.
    public func create(_ item: Item, opID: String, now: Date) {
        lock.withLock {
            var item = item
            item.rev = 0
            item.syncState = .pending
            state.items[item.id] = item
            appendOp(Op(op: opID, item: item.id, kind: .create, baseRev: 0, fields: SyncReconciler.allFields(of: item)),
                     now: now)
            state.history.append(HistoryEntry(item: item, origin: .local, opID: opID))
        }
    }

    /// Sets fields locally and queues (or folds) an update.
    public func update(_ id: String, _ values: [Field: FieldValue], opID: String, now: Date) throws {
        try lock.withLock {
            guard let before = state.items[id], !before.deleted else { throw StoreError.notFound(id: id) }
            var after = try before.applying(values, now: now)
            let changes = after.changes(since: before)
            guard !changes.isEmpty else { return }
            after.updatedAt = now
            if let index = state.ops.lastIndex(where: { $0.op.item == id }),
               state.ops[index].state == .pending, state.ops[index].attempts == 0, state.ops[index].op.kind != .delete {
                if let folded = OutboxFold.fold(kind: state.ops[index].op.kind, existing: state.ops[index].op.fields ?? [:],
                                                changes: changes) {
                    state.ops[index].op.fields = folded
                } else {
                    state.ops.remove(at: index)
                }
            } else {
                appendOp(Op(op: opID, item: id, kind: .update, baseRev: before.rev, fields: changes), now: now)
            }
            after.syncState = badge(of: after)
            state.items[id] = after
            state.history.append(HistoryEntry(item: after, origin: .local, opID: opID))
        }
    }

    /// Deletes an item locally (a tombstone) and queues its `delete`.
    public func delete(_ id: String, opID: String, now: Date) throws {
        try lock.withLock {
            guard var item = state.items[id], !item.deleted else { throw StoreError.notFound(id: id) }
            item.deleted = true
            item.updatedAt = now
            appendOp(Op(op: opID, item: id, kind: .delete, baseRev: item.rev), now: now)
            item.syncState = badge(of: item)
            state.items[id] = item
            state.history.append(HistoryEntry(item: item, origin: .local, opID: opID))
        }
    }

    private func appendOp(_ op: Op, now: Date) {
        state.ops.append(OutboxOp(seq: state.nextSeq, op: op, createdAt: now))
        state.nextSeq += 1
    }

    private func badge(of item: Item) -> SyncState {
        LocalItem(id: item.id, item: item, ops: state.ops.filter { $0.op.item == item.id },
                  conflict: state.conflicts[item.id]).badge
    }

    // MARK: - The transaction

    private struct Transaction: SyncTransaction {
        let storage: InMemorySyncStorage

        private var state: State {
            get { storage.state }
            nonmutating set { storage.state = newValue }
        }

        func position() throws -> SyncPosition { state.position }

        func setPosition(_ position: SyncPosition) throws { state.position = position }

        func items(_ ids: [String]) throws -> [String: LocalItem] {
            var result: [String: LocalItem] = [:]
            let wanted = Set(ids)
            var opsByItem: [String: [OutboxOp]] = [:]
            for op in state.ops where wanted.contains(op.op.item) { opsByItem[op.op.item, default: []].append(op) }
            for id in wanted {
                let item = state.items[id]
                let ops = opsByItem[id] ?? []
                let conflict = state.conflicts[id]
                if item == nil && ops.isEmpty && conflict == nil { continue }
                result[id] = LocalItem(id: id, item: item, ops: ops, conflict: conflict)
            }
            return result
        }

        func items(idAfter after: String?, through: String?) throws -> [LocalItem] {
            let ids = state.items.keys.filter { id in
                (after.map { id > $0 } ?? true) && (through.map { id <= $0 } ?? true)
            }
            return try items(Array(ids)).values.sorted { $0.id < $1.id }
        }

        func sendableOps(limit: Int) throws -> [OutboxOp] {
            Array(state.ops.lazy.filter { $0.state == .pending && self.state.conflicts[$0.op.item] == nil }.prefix(limit))
        }

        func inFlightOps() throws -> [OutboxOp] {
            state.ops.filter { $0.state == .inFlight }
        }

        func save(_ new: LocalItem, over old: LocalItem) throws {
            if let item = new.item { state.items[new.id] = item } else { state.items[new.id] = nil }
            state.conflicts[new.id] = new.conflict
            var current = state
            let kept = Dictionary(new.ops.filter { $0.seq != 0 }.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
            current.ops = current.ops.compactMap { op in
                guard op.op.item == new.id else { return op }
                return kept[op.seq]
            }
            for op in new.ops where op.seq == 0 {
                var stored = op
                stored.seq = current.nextSeq
                current.nextSeq += 1
                current.ops.append(stored)
            }
            state = current
        }

        func appendHistory(_ entries: [HistoryEntry], at time: Date) throws {
            state.history += entries
        }

        func appendEvents(_ events: [SyncEvent], keeping: Int) throws {
            var log = state.events + events
            if log.count > keeping { log.removeFirst(log.count - keeping) }
            state.events = log
        }

        func liveVersions() throws -> [(id: String, rev: Int)] {
            state.items.values.filter { !$0.deleted && $0.rev >= 1 }.map { ($0.id, $0.rev) }
        }

        func hasOutstandingChanges() throws -> Bool {
            !state.conflicts.isEmpty || state.ops.contains { $0.state != .rejected }
        }
    }
}
