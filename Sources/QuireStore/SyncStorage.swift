import Foundation
import QuireCore

/// The reads and writes sync needs from the local store, inside one transaction.
///
/// Deliberately small and dumb: load and save `LocalItem`s, a few outbox queries, the sync
/// position, and appends to history and the event log. Every decision is taken above it (by
/// QuireSync's `SyncReconciler`, driven by its `SyncLedger`), so the store's version
/// (`AppDatabase.syncStorage()`) is plain plumbing and the in-memory version used by unit
/// tests behaves the same.
public protocol SyncTransaction {
    func position() throws -> SyncMeta
    func setPosition(_ position: SyncMeta) throws
    /// The local state of these items; ids this device does not know are left out.
    func items(_ ids: [String]) throws -> [String: LocalItem]
    /// Items with `after < id <= through` (either bound may be open), in id order, those known
    /// only by a version that did not open included.
    func items(idAfter after: String?, through: String?) throws -> [LocalItem]
    /// The ids of the unreadable versions (`UnreadableVersion`) not yet tried with the keys of
    /// fingerprint `keys`, in id order, at most `limit`.
    func unreadableIDs(notTriedWith keys: String, limit: Int) throws -> [String]
    /// Pending ops in creation order, leaving out the ops of items that need review.
    func sendableOps(limit: Int) throws -> [OutboxOp]
    func inFlightOps() throws -> [OutboxOp]
    /// Writes an item's new local state (row, ops, conflict record) over the state it had.
    /// Ops with `seq == 0` are new and go to the end of the outbox.
    func save(_ new: LocalItem, over old: LocalItem) throws
    /// Saves many items at once (each as `save(_:over:)` would), so a store can write a page of
    /// new items in a few statements instead of one statement per item.
    func save(_ changes: [LocalChange]) throws
    func appendHistory(_ entries: [HistoryEntry], at time: Date) throws
    /// Marks the newest history version each op made with the revision and server version the
    /// server acknowledged it as.
    func markAcknowledged(_ versions: [AcknowledgedVersion]) throws
    /// The newest versions of an item's history (at most `recentVersionLimit`), newest first,
    /// with where each came from; a version carries its `serverVersion` only when it is one
    /// (pulled, or this device's own as the server acknowledged it).
    func recentVersions(of itemID: String) throws -> [HistoryEntry]
    /// Appends to the event log and drops the oldest entries beyond `keeping`.
    func appendEvents(_ events: [SyncEvent], keeping: Int) throws
    /// The newest event of the log, if any.
    func newestEvent() throws -> SyncEvent?
    /// Rewrites the time and message of one event (a run of idle rounds kept as one line).
    func restamp(event seq: Int64, at time: Date, message: String) throws
    /// Id and revision of every live item that has a revision, as the newest server version
    /// this device received says: its unreadable version (`LocalItem.unreadable`) when that is
    /// newer than the copy it holds.
    func liveVersions() throws -> [(id: String, rev: Int)]
    /// True while any op is pending or in flight, or an item needs review.
    func hasOutstandingChanges() throws -> Bool
}

/// An item's new local state and the state it replaces, for `SyncTransaction.save(_:)`.
public struct LocalChange: Sendable {
    public var new: LocalItem
    public var old: LocalItem

    public init(new: LocalItem, old: LocalItem) {
        self.new = new
        self.old = old
    }
}

/// How many versions `SyncTransaction.recentVersions(of:)` reads: a merge base further back
/// than that is not looked for.
public let recentVersionLimit = 200

extension SyncTransaction {
    public func save(_ changes: [LocalChange]) throws {
        for change in changes { try save(change.new, over: change.old) }
    }
}

/// A local store sync can run transactions on.
public protocol SyncStorage: Sendable {
    /// Runs `body` in one write transaction: all of its writes happen, or none. `durability`
    /// says whether the commit must be on the disk before this returns.
    func write<T>(_ durability: CommitDurability, _ body: (any SyncTransaction) throws -> T) throws -> T
    /// Runs `body` on a consistent read-only view.
    func read<T>(_ body: (any SyncTransaction) throws -> T) throws -> T
}

extension SyncStorage {
    /// A write transaction whose commit is on the disk before this returns.
    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try write(.synced, body)
    }
}

/// Whether a write transaction's commit must reach the disk before the write returns.
public enum CommitDurability: Sendable {
    /// Synced at commit (`synchronous = FULL`): what a person did, and what answers them.
    case synced
    /// Synced by the next synced commit or checkpoint (`synchronous = NORMAL`). Only for what
    /// comes back by itself if a power cut or an OS crash takes it away: a pulled page (its
    /// cursor commits with it, so it is pulled again), a push's acknowledgements (the ops go
    /// again under their own ids and the server answers with what it did), the sync log. A
    /// first pull of 100k items commits 400 times; syncing each would add a disk flush per
    /// commit to work that a crash loses nothing of. A process crash loses nothing either way.
    /// Never for a commit that something outside the store then relies on before the next
    /// synced one (ops marked sent, then sent): the WAL keeps commits in order, so a later
    /// synced commit makes every earlier one durable, but nothing makes them durable sooner.
    case replayable

    /// The statement that sets a connection to this durability.
    var pragma: String {
        switch self {
        case .synced: "PRAGMA synchronous = FULL"
        case .replayable: "PRAGMA synchronous = NORMAL"
        }
    }
}

/// Everything local about one item that sync reads and rewrites together, in one
/// transaction: the row, its outbox operations (in creation order) and its conflict record.
public struct LocalItem: Hashable, Sendable {
    public var id: String
    /// Nil when this device has never seen the item.
    public var item: Item?
    public var ops: [OutboxOp]
    public var conflict: ConflictRecord?
    /// The newest server version of the item, when it did not open here.
    public var unreadable: UnreadableVersion?
    /// The item was deleted for good here (`AppDatabase.purge`): a tombstone of it that arrives
    /// is not kept.
    public var purged = false

    public init(id: String, item: Item? = nil, ops: [OutboxOp] = [], conflict: ConflictRecord? = nil) {
        self.id = id
        self.item = item
        self.ops = ops
        self.conflict = conflict
    }

    /// The ops that still travel (pending or in flight), in order.
    public var activeOps: [OutboxOp] { ops.filter(\.isActive) }

    /// What the item's badge must say, from the facts alone (`SyncBadge`).
    public var badge: SyncState {
        SyncBadge.state(needsReview: conflict != nil, ops: ops.lazy.map(\.standing))
    }
}

/// A history version the server acknowledged as exactly this device's: the op that made it and
/// the revision and `ServerVersion` the server gave it.
public struct AcknowledgedVersion: Hashable, Sendable {
    /// The item the op changed: its history is where the version is found (by the item, whose
    /// versions are indexed, not by the op id, which is not: a search by op id read the whole
    /// history once per acknowledged op, and a first push of 10k items took 5 s).
    public var itemID: String
    public var opID: String
    public var rev: Int
    public var version: ServerVersion
    /// The server's times for it, when it sent them (`createdAt` with a create only).
    public var createdAt: Date?
    public var updatedAt: Date?
    public var doneAt: Date?

    public init(
        itemID: String, opID: String, rev: Int, version: ServerVersion, createdAt: Date? = nil, updatedAt: Date? = nil,
        doneAt: Date? = nil
    ) {
        self.itemID = itemID
        self.opID = opID
        self.rev = rev
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.doneAt = doneAt
    }
}

/// A version to add to an item's history.
public struct HistoryEntry: Hashable, Sendable {
    public var item: Item
    public var origin: ChangeOrigin
    public var opID: String?

    public init(item: Item, origin: ChangeOrigin, opID: String? = nil) {
        self.item = item
        self.origin = origin
        self.opID = opID
    }
}
