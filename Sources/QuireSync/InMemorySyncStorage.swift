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
    /// Whether a transaction whose body throws is rolled back. Rolling back keeps a snapshot of
    /// every table, and the first change after it copies them: fine for tests, quadratic for a
    /// benchmark that pushes a million items to seed a server, which turns it off.
    private let rollsBack: Bool

    struct State {
        var position: SyncMeta
        var items: [String: Item] = [:]
        /// The outbox by seq, with each item's seqs in order; `order` lists seqs in creation
        /// order (removed ones are skipped, and dropped once they are a long prefix).
        var opsBySeq: [Int64: OutboxOp] = [:]
        var seqsByItem: [String: [Int64]] = [:]
        var order: [Int64] = []
        var firstLive = 0
        var conflicts: [String: ConflictRecord] = [:]
        var unreadable: [String: UnreadableVersion] = [:]
        /// The seqs of in-flight ops, and the index in `history` of each op's newest entry: a
        /// scan of every op or every entry per round made seeding a million items quadratic.
        var inFlight: Set<Int64> = []
        var newestEntryByOp: [String: Int] = [:]
        var history: [HistoryEntry] = []
        var events: [SyncEvent] = []
        var nextSeq: Int64 = 1

        /// The outbox in creation order.
        var ops: [OutboxOp] { order[firstLive...].compactMap { opsBySeq[$0] } }

        func ops(of item: String) -> [OutboxOp] {
            (seqsByItem[item] ?? []).compactMap { opsBySeq[$0] }
        }

        mutating func append(_ op: OutboxOp) {
            var stored = op
            stored.seq = nextSeq
            nextSeq += 1
            opsBySeq[stored.seq] = stored
            if stored.state == .inFlight { inFlight.insert(stored.seq) }
            seqsByItem[stored.op.item, default: []].append(stored.seq)
            order.append(stored.seq)
        }

        mutating func record(_ entry: HistoryEntry) {
            if let opID = entry.opID { newestEntryByOp[opID] = history.count }
            history.append(entry)
        }

        mutating func replaceOps(of item: String, with ops: [OutboxOp]) {
            for seq in seqsByItem[item] ?? [] {
                opsBySeq[seq] = nil
                inFlight.remove(seq)
            }
            seqsByItem[item] = nil
            for op in ops where op.seq != 0 {
                opsBySeq[op.seq] = op
                if op.state == .inFlight { inFlight.insert(op.seq) }
                seqsByItem[item, default: []].append(op.seq)
            }
            for op in ops where op.seq == 0 { append(op) }
            while firstLive < order.count && opsBySeq[order[firstLive]] == nil { firstLive += 1 }
            if firstLive > 4096 && firstLive > order.count / 2 {
                order.removeFirst(firstLive)
                firstLive = 0
            }
        }
    }

    public init(deviceID: String, rollsBack: Bool = true) {
        state = State(position: SyncMeta(deviceID: deviceID))
        self.rollsBack = rollsBack
    }

    /// `durability` does not apply: memory has no disk to reach.
    public func write<T>(_ durability: CommitDurability, _ body: (any SyncTransaction) throws -> T) throws -> T {
        try lock.withLock {
            guard rollsBack else { return try body(Transaction(storage: self)) }
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
    public var unreadable: [UnreadableVersion] {
        lock.withLock { state.unreadable.values.sorted { $0.itemID < $1.itemID } }
    }
    public var history: [HistoryEntry] { lock.withLock { state.history } }
    public var events: [SyncEvent] { lock.withLock { state.events } }
    public var currentPosition: SyncMeta { lock.withLock { state.position } }

    // MARK: - Local edits, as the store makes them

    /// Creates an item locally and queues its `create`.
    public func create(_ item: Item, opID: String, now: Date) {
        lock.withLock {
            var item = item
            item.rev = 0
            item.syncState = .pending
            state.items[item.id] = item
            appendOp(
                Op(id: opID, item: item.id, kind: .create, baseRev: 0, fields: item.creationFields),
                now: now)
            state.record(HistoryEntry(item: Self.unacknowledged(item), origin: .local, opID: opID))
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
            var ops = state.ops(of: id)
            // The history names the op that carries the change, as the store's does.
            var carrier: String? = opID
            if let latest = ops.last, latest.state == .pending, latest.attempts == 0, latest.op.kind != .delete {
                if let folded = OutboxFold.fold(
                    kind: latest.op.kind, existing: latest.op.fields ?? [:], changes: changes)
                {
                    ops[ops.count - 1].op.fields = folded
                    carrier = latest.op.id
                } else {
                    ops.removeLast()
                    carrier = nil
                }
                state.replaceOps(of: id, with: ops)
            } else {
                appendOp(
                    Op(
                        id: opID, item: id, kind: .update, baseRev: before.rev, fields: changes,
                        baseVersion: before.serverVersion), now: now)
            }
            after.syncState = badge(of: after)
            state.items[id] = after
            state.record(HistoryEntry(item: Self.unacknowledged(after), origin: .local, opID: carrier))
        }
    }

    /// Deletes an item locally (a tombstone) and queues its `delete`.
    public func delete(_ id: String, opID: String, now: Date) throws {
        try lock.withLock {
            guard var item = state.items[id], !item.deleted else { throw StoreError.notFound(id: id) }
            item.deleted = true
            item.updatedAt = now
            appendOp(
                Op(id: opID, item: id, kind: .delete, baseRev: item.rev, baseVersion: item.serverVersion), now: now)
            item.syncState = badge(of: item)
            state.items[id] = item
            state.record(HistoryEntry(item: Self.unacknowledged(item), origin: .local, opID: opID))
        }
    }

    /// A local version as history keeps it: not a server version until acknowledged.
    private static func unacknowledged(_ item: Item) -> Item {
        var item = item
        item.serverVersion = nil
        return item
    }

    private func appendOp(_ op: Op, now: Date) {
        state.append(OutboxOp(op: op, createdAt: now))
    }

    private func badge(of item: Item) -> SyncState {
        LocalItem(id: item.id, item: item, ops: state.ops(of: item.id), conflict: state.conflicts[item.id]).badge
    }

    // MARK: - The transaction

    private struct Transaction: SyncTransaction {
        let storage: InMemorySyncStorage

        func position() throws -> SyncMeta { storage.state.position }

        func setPosition(_ position: SyncMeta) throws { storage.state.position = position }

        func items(_ ids: [String]) throws -> [String: LocalItem] {
            var result: [String: LocalItem] = [:]
            let wanted = Set(ids)
            for id in wanted {
                let item = storage.state.items[id]
                let ops = storage.state.ops(of: id)
                let conflict = storage.state.conflicts[id]
                let unreadable = storage.state.unreadable[id]
                if item == nil && ops.isEmpty && conflict == nil && unreadable == nil { continue }
                result[id] = LocalItem(id: id, item: item, ops: ops, conflict: conflict)
                result[id]?.unreadable = unreadable
            }
            return result
        }

        func items(idAfter after: String?, through: String?) throws -> [LocalItem] {
            let known = Set(storage.state.items.keys).union(storage.state.unreadable.keys)
            let ids = known.filter { id in
                (after.map { id > $0 } ?? true) && (through.map { id <= $0 } ?? true)
            }
            return try items(Array(ids)).values.sorted { $0.id < $1.id }
        }

        func unreadableIDs(notTriedWith keys: String, limit: Int) throws -> [String] {
            Array(storage.state.unreadable.values.filter { $0.triedKeys != keys }.map(\.itemID).sorted().prefix(limit))
        }

        func sendableOps(limit: Int) throws -> [OutboxOp] {
            let state = storage.state
            var result: [OutboxOp] = []
            for seq in state.order[state.firstLive...] where result.count < limit {
                guard let op = state.opsBySeq[seq], op.state == .pending, state.conflicts[op.op.item] == nil else {
                    continue
                }
                result.append(op)
            }
            return result
        }

        func inFlightOps() throws -> [OutboxOp] {
            storage.state.inFlight.sorted().compactMap { storage.state.opsBySeq[$0] }
        }

        func save(_ new: LocalItem, over old: LocalItem) throws {
            if let item = new.item { storage.state.items[new.id] = item } else { storage.state.items[new.id] = nil }
            storage.state.conflicts[new.id] = new.conflict
            storage.state.unreadable[new.id] = new.unreadable
            if new.ops != old.ops { storage.state.replaceOps(of: new.id, with: new.ops) }
        }

        func appendHistory(_ entries: [HistoryEntry], at time: Date) throws {
            // As the store keeps it: only a pulled version is known as a server version.
            for var entry in entries {
                if entry.origin != .remote { entry.item.serverVersion = nil }
                storage.state.record(entry)
            }
        }

        func markAcknowledged(_ versions: [AcknowledgedVersion]) throws {
            // Each op's newest version is indexed as it is recorded: a search per version, or a
            // pass over the whole history per batch, made a large first push quadratic.
            for version in versions {
                guard let index = storage.state.newestEntryByOp[version.opID] else { continue }
                storage.state.history[index].item.rev = version.rev
                storage.state.history[index].item.serverVersion = version.version
                if let createdAt = version.createdAt { storage.state.history[index].item.createdAt = createdAt }
                if let updatedAt = version.updatedAt { storage.state.history[index].item.updatedAt = updatedAt }
                if storage.state.history[index].item.done, let doneAt = version.doneAt {
                    storage.state.history[index].item.doneAt = doneAt
                }
            }
        }

        func recentVersions(of itemID: String) throws -> [HistoryEntry] {
            Array(storage.state.history.reversed().lazy.filter { $0.item.id == itemID }.prefix(recentVersionLimit))
        }

        func newestEvent() throws -> SyncEvent? { storage.state.events.last }

        func restamp(event seq: Int64, at time: Date, message: String) throws {
            guard let index = storage.state.events.lastIndex(where: { $0.seq == seq }) else { return }
            storage.state.events[index].at = time
            storage.state.events[index].message = message
        }

        func appendEvents(_ events: [SyncEvent], keeping: Int) throws {
            var log = storage.state.events + events
            if log.count > keeping { log.removeFirst(log.count - keeping) }
            storage.state.events = log
        }

        func liveVersions() throws -> [(id: String, rev: Int)] {
            // Each item once: its own copy's version, or the newer one that did not open.
            var newest = storage.state.items.mapValues { (rev: $0.rev, deleted: $0.deleted) }
            for (id, version) in storage.state.unreadable where version.rev > newest[id]?.rev ?? 0 {
                newest[id] = (version.rev, version.deleted)
            }
            return newest.filter { !$0.value.deleted && $0.value.rev >= 1 }.map { ($0.key, $0.value.rev) }
        }

        func hasOutstandingChanges() throws -> Bool {
            !storage.state.conflicts.isEmpty || storage.state.opsBySeq.values.contains { $0.state != .rejected }
        }
    }
}
