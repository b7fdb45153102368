import Foundation
import GRDB
import QuireCore

// MARK: - Sync bookkeeping

/// What the sync engine and `quire status` read: the outbox, the sync state row, conflicts and
/// the event log.
extension AppDatabase {
    /// Outbox operations in creation order, optionally only those in one state.
    public func outbox(state: OutboxState? = .pending, limit: Int? = nil) throws(StoreError) -> [OutboxEntry] {
        try read { db in
            let condition = state == nil ? "1" : "state = ?"
            var arguments: StatementArguments = state.map { [$0.rawValue] } ?? []
            arguments += [limit ?? -1]
            let statement = try db.cachedStatement(
                sql: "SELECT \(OutboxEntry.columns) FROM outbox WHERE \(condition) ORDER BY seq LIMIT ?")
            return try Row.fetchAll(statement, arguments: arguments).map(OutboxEntry.decode)
        }
    }

    /// The outbox operations of one item, in creation order.
    public func outbox(for itemID: String) throws(StoreError) -> [OutboxEntry] {
        try read { db in try Outbox.entries(for: itemID, in: db) }
    }

    /// How many operations wait in each state.
    public func outboxCounts() throws(StoreError) -> OutboxCounts {
        try read { db in
            var counts = OutboxCounts(pending: 0, inFlight: 0, rejected: 0)
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) FROM outbox GROUP BY state") {
                let state: String = row[0]
                let count: Int = row[1]
                switch OutboxState(rawValue: state) {
                case .pending: counts.pending = count
                case .inFlight: counts.inFlight = count
                case .rejected: counts.rejected = count
                case nil: break
                }
            }
            return counts
        }
    }

    /// The sync state row.
    public func syncMeta() throws(StoreError) -> SyncMeta {
        try read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT deviceId, cursor, epoch, stateHash, lastSuccessAt FROM syncMeta WHERE id = 1")
            else { throw StoreError.unusable(path: path, reason: "the sync state row is missing") }
            let last: String? = row[4]
            return SyncMeta(
                deviceID: row[0], cursor: row[1], epoch: row[2], stateHash: row[3],
                lastSuccessAt: last.flatMap(StoreTime.date(from:)))
        }
    }

    /// This store's device id.
    public func deviceID() throws(StoreError) -> String {
        try syncMeta().deviceID
    }

    /// Items that need review, oldest conflict first.
    public func conflicts() throws(StoreError) -> [ConflictRecord] {
        try read { db in
            let decoder = JSONDecoder()
            return try Row.fetchAll(
                db, sql: "SELECT itemId, base, local, remote, fields, detectedAt FROM conflict ORDER BY detectedAt, itemId"
            ).map { row in
                func item(_ text: String) throws -> Item { try decoder.decode(Item.self, from: Data(text.utf8)) }
                let base: String? = row[1]
                let fields: String = row[4]
                let detected: String = row[5]
                return ConflictRecord(
                    itemID: row[0], base: try base.map(item), local: try item(row[2]), remote: try item(row[3]),
                    fields: try decoder.decode([Field].self, from: Data(fields.utf8)),
                    detectedAt: StoreTime.date(from: detected) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }

    /// The most recent sync events, newest first.
    public func recentSyncEvents(limit: Int = 20) throws(StoreError) -> [SyncEvent] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, at, kind, message, itemId, opId FROM syncEvent ORDER BY seq DESC LIMIT ?",
                arguments: [limit]
            ).map { row in
                let at: String = row[1]
                return SyncEvent(
                    seq: row[0], at: StoreTime.date(from: at) ?? Date(timeIntervalSince1970: 0), kind: row[2],
                    message: row[3], itemID: row[4], opID: row[5])
            }
        }
    }
}
