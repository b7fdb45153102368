import Foundation
import GRDB
import QuireCore

/// Where an outbox operation stands.
public enum OutboxState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Waiting to be sent: written locally, or sent once and put back after a lost answer
    /// (then `attempts` is above zero and nothing folds into it).
    case pending
    /// Sent in a request whose answer has not been applied yet; never folded into, because the
    /// server may already have applied it as it was sent.
    case inFlight = "in-flight"
    /// The server refused it for good (a dead letter); kept until the person retries or discards it.
    case rejected
}

/// One row of the outbox: an operation and its delivery bookkeeping.
public struct OutboxEntry: Sendable, Hashable {
    /// Creation order; folding keeps the position of the op folded into.
    public var seq: Int64
    public var op: Op
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var state: OutboxState
    public var lastError: String?

    /// Written locally and never put in a request: the only kind of op later changes may fold
    /// into or cancel, because no server can have applied it yet.
    public var wasNeverSent: Bool { state == .pending && attempts == 0 }
}

/// How many operations wait in each state.
public struct OutboxCounts: Sendable, Hashable {
    public var pending: Int
    public var inFlight: Int
    public var rejected: Int
    /// Everything not yet accepted by the server (pending and in flight).
    public var waiting: Int { pending + inFlight }
}

/// The fold rule that keeps the outbox from growing with every keystroke (pure, so it is
/// tested on its own).
///
/// A new update to an item whose latest op has never been sent merges into that op: each field
/// keeps its earliest `from` and takes the latest `to`. In an update op, a field whose `to` is
/// its `from` again is dropped, and an update with no fields left disappears. A create keeps
/// every field (it carries the whole item) and only takes the new values.
public enum OutboxFold {
    /// The fields of the op after folding `changes` into it; nil when an update op has nothing
    /// left to say and should be removed.
    public static func fold(
        kind: OpKind, existing: [Field: FieldChange], changes: [Field: FieldChange]
    ) -> [Field: FieldChange]? {
        var merged = existing
        for (field, change) in changes {
            let from = existing[field]?.from ?? change.from
            merged[field] = FieldChange(from: from, to: change.to)
            if kind == .update && from == change.to {
                merged[field] = nil
            }
        }
        if kind == .update && merged.isEmpty { return nil }
        return merged
    }
}

extension OutboxEntry {
    static let columns = "seq, opId, itemId, kind, baseRev, fields, createdAt, attempts, nextAttemptAt, state, lastError"

    static func decode(_ row: Row) throws -> OutboxEntry {
        let kindText: String = row[3]
        guard let kind = OpKind(rawValue: kindText) else { throw DecodeFailure("bad op kind \(kindText)") }
        let fieldsText: String? = row[5]
        let stateText: String = row[9]
        let createdText: String = row[6]
        let nextText: String? = row[8]
        return OutboxEntry(
            seq: row[0],
            op: Op(
                op: row[1], item: row[2], kind: kind, baseRev: row[4],
                fields: try fieldsText.map(JSONText.parseFieldChanges)),
            createdAt: StoreTime.date(from: createdText) ?? Date(timeIntervalSince1970: 0),
            attempts: row[7],
            nextAttemptAt: nextText.flatMap(StoreTime.date(from:)),
            state: OutboxState(rawValue: stateText) ?? .pending,
            lastError: row[10])
    }
}
