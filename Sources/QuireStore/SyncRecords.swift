import Foundation
import GRDB
import QuireCore

/// Where this device stands with the server (the `syncMeta` row).
public struct SyncMeta: Sendable, Hashable {
    /// This store's device id, made once when the database was created.
    public var deviceID: String
    /// The pull cursor the server returned last; nil before the first pull.
    public var cursor: String?
    /// The server epoch seen last; a different one means the server lost or restored data.
    public var epoch: String?
    /// The server's state hash at `cursor`, as seen last.
    public var stateHash: String?
    /// When a sync round last finished without error.
    public var lastSuccessAt: Date?
    /// When the server last refused this device for want of the account's keys (the account
    /// is encrypted); nil once a round goes through. Kept here rather than read from the last
    /// round, so a locked device that is offline, or just opened, still knows it is locked.
    public var lockedAt: Date?

    public init(
        deviceID: String, cursor: String? = nil, epoch: String? = nil, stateHash: String? = nil,
        lastSuccessAt: Date? = nil, lockedAt: Date? = nil
    ) {
        self.deviceID = deviceID
        self.cursor = cursor
        self.epoch = epoch
        self.stateHash = stateHash
        self.lastSuccessAt = lastSuccessAt
        self.lockedAt = lockedAt
    }
}

/// An item that needs review: the last version both sides agreed on, this device's version,
/// the other version and the fields both changed differently.
public struct ConflictRecord: Sendable, Hashable {
    /// Where the two versions met.
    public enum Origin: String, Sendable, Hashable {
        /// This device's version met the server's (`remote`). The row shows the merge with the
        /// local values where they conflict, and no op carries it: the resolution is a change
        /// against `remote`.
        case sync
        /// A save that started from `base` (`local`, what the person saved) met the item as
        /// another writer on this device had left it (`remote`). The row holds both (the clean
        /// merge, both sides of each conflicting body hunk) as an ordinary queued change, so
        /// nothing typed waits on the record alone; the resolution is a change of the row.
        case edit
    }

    public var itemID: String
    public var base: Item?
    public var local: Item
    public var remote: Item
    public var fields: [Field]
    public var detectedAt: Date
    public var origin: Origin

    public init(
        itemID: String, base: Item?, local: Item, remote: Item, fields: [Field], detectedAt: Date,
        origin: Origin = .sync
    ) {
        self.itemID = itemID
        self.base = base
        self.local = local
        self.remote = remote
        self.fields = fields
        self.detectedAt = detectedAt
        self.origin = origin
    }

    /// The two versions a person chooses between, merged against the base. For a sync record
    /// the row is this device's side: the person may have edited it since the merge. For an
    /// edit record the row holds both sides already, so the saved version is the local one.
    public func merge(showing row: Item) -> ItemMerge {
        ItemMerge(base: base, local: origin == .edit ? local : row, remote: remote)
    }

    /// This device's version as the resolve screen shows it: the recorded one, with the fields
    /// in conflict as the merge's local side has them now.
    public func shownLocal(row: Item) -> Item {
        var shown = local
        let side = merge(showing: row).local
        for field in fields { try? shown.set(field, to: side.value(of: field), now: side.doneAt ?? side.updatedAt) }
        return shown
    }
}

/// One line of the sync event log: what happened, in words for people and as facts for the
/// programs that read the log back (`quire status`, the sync status screen).
public struct SyncEvent: Sendable, Hashable {
    public var seq: Int64
    public var at: Date
    public var kind: SyncEventKind
    /// One line for people.
    public var message: String
    public var itemID: String?
    public var opID: String?
    /// The bytes an exchange moved: sent for `PUSH_OK`, received for `PULL_OK`.
    public var bytes: Int?
    /// How long the exchange took.
    public var duration: TimeInterval?
    /// How long the server asked to wait before the next attempt (its `Retry-After`).
    public var retryAfter: TimeInterval?
    /// Why the exchange failed, on `RETRY`, `AUTH` and `RESYNC` events that follow a failure.
    public var failure: SyncFailureKind?

    public init(
        seq: Int64 = 0, at: Date, kind: SyncEventKind, message: String, itemID: String? = nil, opID: String? = nil,
        bytes: Int? = nil, duration: TimeInterval? = nil, retryAfter: TimeInterval? = nil,
        failure: SyncFailureKind? = nil
    ) {
        self.seq = seq
        self.at = at
        self.kind = kind
        self.message = message
        self.itemID = itemID
        self.opID = opID
        self.bytes = bytes
        self.duration = duration
        self.retryAfter = retryAfter
        self.failure = failure
    }
}

// MARK: - Rows

/// The `syncMeta` row's one mapping.
enum SyncMetaRow {
    static func fetch(in db: Database) throws -> SyncMeta {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT deviceId, cursor, epoch, stateHash, lastSuccessAt, lockedAt FROM syncMeta WHERE id = 1
                        """))
        else { throw DecodeFailure("the sync state row is missing") }
        let last: String? = row[4]
        let locked: String? = row[5]
        return SyncMeta(
            deviceID: row[0], cursor: row[1], epoch: row[2], stateHash: row[3],
            lastSuccessAt: last.flatMap(StoreTime.date(from:)), lockedAt: locked.flatMap(StoreTime.date(from:)))
    }

    /// Writes everything but the device id, which never changes.
    static func save(_ meta: SyncMeta, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE syncMeta SET cursor = ?, epoch = ?, stateHash = ?, lastSuccessAt = ?, lockedAt = ? WHERE id = 1
                """
        ).execute(arguments: [
            meta.cursor, meta.epoch, meta.stateHash, meta.lastSuccessAt.map(StoreTime.string(from:)),
            meta.lockedAt.map(StoreTime.string(from:)),
        ])
    }
}

/// The `conflict` table's one mapping; the three versions are stored as SPEC JSON items.
enum ConflictRow {
    static let columns = "itemId, base, local, remote, fields, detectedAt, origin"

    static func decode(_ row: Row) throws -> ConflictRecord {
        let decoder = JSONDecoder()
        func item(_ text: String) throws -> Item { try decoder.decode(Item.self, from: Data(text.utf8)) }
        let base: String? = row[1]
        let fields: String = row[4]
        let detected: String = row[5]
        let origin: String = row[6]
        guard let names = JSONText.parseStrings(fields) else { throw DecodeFailure("bad conflict fields \(fields)") }
        return ConflictRecord(
            itemID: row[0], base: try base.map(item), local: try item(row[2]), remote: try item(row[3]),
            fields: names.compactMap(Field.init(rawValue:)),
            detectedAt: StoreTime.date(from: detected) ?? Date(timeIntervalSince1970: 0),
            origin: ConflictRecord.Origin(rawValue: origin) ?? .sync)
    }

    /// Writes the item's record, replacing the one it had.
    static func save(_ record: ConflictRecord, in db: Database) throws {
        let encoder = JSONEncoder()
        func json(_ item: Item) throws -> String { String(decoding: try encoder.encode(item), as: UTF8.self) }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO conflict (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [
                record.itemID, try record.base.map(json), try json(record.local), try json(record.remote),
                JSONText.strings(record.fields.map(\.rawValue)), StoreTime.string(from: record.detectedAt),
                record.origin.rawValue,
            ])
    }
}

extension SyncEvent {
    /// How many events the log keeps, whoever appends them (the sync ledger, a save that met
    /// another change).
    public static let logLimit = 1_000
}

/// The `syncEvent` table's one mapping.
enum SyncEventRow {
    static let columns = "seq, at, kind, message, itemId, opId, bytes, durationMs, retryAfterSeconds, failure"

    static func decode(_ row: Row) throws -> SyncEvent {
        let at: String = row[1]
        let kindText: String = row[2]
        guard let kind = SyncEventKind(rawValue: kindText) else { throw DecodeFailure("bad event kind \(kindText)") }
        let milliseconds: Int? = row[7]
        let failure: String? = row[9]
        return SyncEvent(
            seq: row[0], at: StoreTime.date(from: at) ?? Date(timeIntervalSince1970: 0), kind: kind, message: row[3],
            itemID: row[4], opID: row[5], bytes: row[6], duration: milliseconds.map { TimeInterval($0) / 1000 },
            retryAfter: row[8], failure: failure.flatMap(SyncFailureKind.init(rawValue:)))
    }

    /// Appends events (their `seq` is assigned here) and drops the oldest beyond `keeping`.
    static func append(_ events: [SyncEvent], keeping: Int, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO syncEvent (at, kind, message, itemId, opId, bytes, durationMs, retryAfterSeconds, failure)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for event in events {
            try statement.execute(arguments: [
                StoreTime.string(from: event.at), event.kind.rawValue, event.message, event.itemID, event.opID,
                event.bytes, event.duration.map { Int(($0 * 1000).rounded()) }, event.retryAfter,
                event.failure?.rawValue,
            ])
        }
        try db.execute(
            sql: "DELETE FROM syncEvent WHERE seq <= (SELECT max(seq) FROM syncEvent) - ?", arguments: [keeping])
    }
}
