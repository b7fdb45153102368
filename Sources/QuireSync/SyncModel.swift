import Foundation
import QuireCore
import QuireStore

/// One outbox operation as sync sees it: the op and its delivery bookkeeping.
public struct OutboxOp: Hashable, Sendable {
    /// Creation order, assigned by the store; 0 for an op sync has just made (not stored yet).
    public var seq: Int64
    public var op: Op
    public var state: OutboxState
    /// How many times the op was sent. Local edits never fold into an op sent at least once:
    /// the server may have applied it as it was.
    public var attempts: Int
    /// The server-side failure the op last met (5xx, an unreadable answer, a rejection);
    /// nil after a network failure, since being offline is not the op's fault.
    public var lastError: String?
    public var createdAt: Date

    public init(seq: Int64 = 0, op: Op, state: OutboxState = .pending, attempts: Int = 0, lastError: String? = nil,
                createdAt: Date) {
        self.seq = seq
        self.op = op
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
    }

    public init(_ entry: OutboxEntry) {
        self.init(seq: entry.seq, op: entry.op, state: entry.state, attempts: entry.attempts,
                  lastError: entry.lastError, createdAt: entry.createdAt)
    }

    /// Pending or in flight: a change the server has not acknowledged and that still travels.
    public var isActive: Bool { state != .rejected }
}

/// Everything local about one item that sync reads and rewrites together, in one
/// transaction: the row, its outbox operations (in creation order) and its conflict record.
public struct LocalItem: Hashable, Sendable {
    public var id: String
    /// Nil when this device has never seen the item.
    public var item: Item?
    public var ops: [OutboxOp]
    public var conflict: ConflictRecord?

    public init(id: String, item: Item? = nil, ops: [OutboxOp] = [], conflict: ConflictRecord? = nil) {
        self.id = id
        self.item = item
        self.ops = ops
        self.conflict = conflict
    }

    /// The ops that still travel (pending or in flight), in order.
    public var activeOps: [OutboxOp] { ops.filter(\.isActive) }

    /// What the item's badge must say, from the facts alone (SPEC's badges are never set by
    /// hand): needs-review while a conflict waits; error for a dead letter or an op the server
    /// keeps failing; pending while an op waits; syncing while all its ops are in flight.
    public var badge: SyncState {
        if conflict != nil { return .needsReview }
        if ops.contains(where: {
            $0.state == .rejected || ($0.attempts >= LocalItem.failedAttemptsForError && $0.lastError != nil)
        }) {
            return .error
        }
        if ops.contains(where: { $0.state == .pending }) { return .pending }
        if ops.contains(where: { $0.state == .inFlight }) { return .syncing }
        return .synced
    }

    /// Sends of one op, the last of them failed by the server, after which its item shows the
    /// error badge (it keeps being retried).
    public static let failedAttemptsForError = 5
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

/// Where this device stands with the server, as sync reads and writes it.
public struct SyncPosition: Hashable, Sendable {
    public var deviceID: String
    public var cursor: String?
    public var epoch: String?
    public var stateHash: String?
    public var lastSuccess: Date?

    public init(deviceID: String, cursor: String? = nil, epoch: String? = nil, stateHash: String? = nil,
                lastSuccess: Date? = nil) {
        self.deviceID = deviceID
        self.cursor = cursor
        self.epoch = epoch
        self.stateHash = stateHash
        self.lastSuccess = lastSuccess
    }
}

/// The kinds of entries in the sync event log.
public enum SyncEventKind: String, Hashable, Sendable, CaseIterable {
    case syncStart = "SYNC_START"
    case pushOK = "PUSH_OK"
    case pullOK = "PULL_OK"
    case conflict = "CONFLICT"
    case merged = "MERGED"
    case retry = "RETRY"
    case deadLetter = "DEAD_LETTER"
    case resync = "RESYNC"
    case auth = "AUTH"
}

/// What applying results or changes did, counted for the event log and `quire sync`.
public struct ReconcileSummary: Hashable, Sendable {
    /// Ops the server applied.
    public var applied = 0
    /// Items whose unsent changes were merged with the server's without asking.
    public var merged = 0
    /// Items that now need review.
    public var needsReview = 0
    /// Ops set aside because the server can never apply them.
    public var deadLetters = 0
    /// Server versions written locally.
    public var pulled = 0
    /// Local versions queued again because the server had lost them.
    public var resent = 0

    public init() {}

    public static func + (lhs: ReconcileSummary, rhs: ReconcileSummary) -> ReconcileSummary {
        var sum = lhs
        sum.applied += rhs.applied
        sum.merged += rhs.merged
        sum.needsReview += rhs.needsReview
        sum.deadLetters += rhs.deadLetters
        sum.pulled += rhs.pulled
        sum.resent += rhs.resent
        return sum
    }
}
