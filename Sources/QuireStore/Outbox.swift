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

/// One row of the outbox: an operation and its delivery bookkeeping. The store's local edits
/// and sync read and write it alike.
public struct OutboxOp: Hashable, Sendable {
    /// Creation order, assigned by the store; 0 for an op sync has just made (not stored
    /// yet). Folding keeps the position of the op folded into.
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

    public init(
        seq: Int64 = 0, op: Op, state: OutboxState = .pending, attempts: Int = 0, lastError: String? = nil,
        createdAt: Date
    ) {
        self.seq = seq
        self.op = op
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
    }

    /// Written locally and never put in a request: the only kind of op later changes may fold
    /// into or cancel, because no server can have applied it yet.
    public var wasNeverSent: Bool { state == .pending && attempts == 0 }

    /// Pending or in flight: a change the server has not acknowledged and that still travels.
    public var isActive: Bool { state != .rejected }

    /// What this op says about its item's badge (`SyncBadge`).
    public var standing: OpStanding {
        let stage: OpStanding.Stage =
            switch state {
            case .pending: .waiting
            case .inFlight: .sending
            case .rejected: .refused
            }
        return OpStanding(stage: stage, attempts: attempts, lastSendFailed: lastError != nil)
    }
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

// MARK: - The outbox table

/// Statements on the `outbox` table: its one column list and row decoding.
enum Outbox {
    /// The columns `decode` reads, in order.
    static let columns =
        "seq, opId, itemId, kind, baseRev, fields, createdAt, attempts, state, lastError, baseVersion, basis"

    static func decode(_ row: Row) throws -> OutboxOp {
        let kindText: String = row[3]
        guard let kind = OpKind(rawValue: kindText) else { throw DecodeFailure("bad op kind \(kindText)") }
        let stateText: String = row[8]
        guard let state = OutboxState(rawValue: stateText) else { throw DecodeFailure("bad op state \(stateText)") }
        let fieldsText: String? = row[5]
        let createdText: String = row[6]
        let baseVersion: String? = row[10]
        let basis: String? = row[11]
        return OutboxOp(
            seq: row[0],
            op: Op(
                id: row[1], item: row[2], kind: kind, baseRev: row[4],
                fields: try fieldsText.map(JSONText.parseFieldChanges),
                baseVersion: baseVersion.flatMap(ServerVersion.init), basis: basis.flatMap(ServerVersion.init)),
            state: state, attempts: row[7], lastError: row[9],
            createdAt: StoreTime.date(from: createdText) ?? Date(timeIntervalSince1970: 0))
    }

    /// Adds an op at the end of the outbox (a new `seq`).
    static func insert(_ entry: OutboxOp, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (
                    opId, itemId, kind, baseRev, fields, createdAt, attempts, state, lastError, baseVersion, basis)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.op.id, entry.op.item, entry.op.kind.rawValue, entry.op.baseRev,
            entry.op.fields.map(JSONText.fieldChanges), StoreTime.string(from: entry.createdAt),
            entry.attempts, entry.state.rawValue, entry.lastError, entry.op.baseVersion?.description,
            entry.op.basis?.description,
        ])
    }

    /// Queues a new op for `item`, against the item's current revision and server version.
    static func insert(
        opID: String, item: Item, kind: OpKind, fields: [Field: FieldChange]?, createdAt: Date, in db: Database
    ) throws {
        let op = Op(
            id: opID, item: item.id, kind: kind, baseRev: item.rev, fields: fields, baseVersion: item.serverVersion)
        try insert(OutboxOp(op: op, createdAt: createdAt), in: db)
    }

    /// Rewrites what may change about a stored op (everything but its id, item and kind).
    static func update(_ entry: OutboxOp, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE outbox SET state = ?, attempts = ?, lastError = ?, baseRev = ?, fields = ?, baseVersion = ?,
                    basis = ? WHERE seq = ?
                """
        ).execute(arguments: [
            entry.state.rawValue, entry.attempts, entry.lastError, entry.op.baseRev,
            entry.op.fields.map(JSONText.fieldChanges), entry.op.baseVersion?.description,
            entry.op.basis?.description, entry.seq,
        ])
    }

    /// The ops that match `condition` (SQL over the outbox's columns), in creation order, at
    /// most `limit` of them. A condition whose text varies from call to call (an `IN` list)
    /// is not worth keeping prepared: pass `cached: false`.
    static func entries(
        where condition: String, _ arguments: StatementArguments = [], limit: Int? = nil, cached: Bool = true,
        in db: Database
    ) throws -> [OutboxOp] {
        let sql = "SELECT \(columns) FROM outbox WHERE \(condition) ORDER BY seq LIMIT ?"
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: arguments + [limit ?? -1]).map(decode)
    }

    static func entries(for itemID: String, in db: Database) throws -> [OutboxOp] {
        try entries(where: "itemId = ?", [itemID], in: db)
    }

    static func setFields(_ fields: [Field: FieldChange], seq: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE outbox SET fields = ? WHERE seq = ?")
            .execute(arguments: [JSONText.fieldChanges(fields), seq])
    }

    static func remove(_ seqs: [Int64], in db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?")
        for seq in seqs { try statement.execute(arguments: [seq]) }
    }
}
