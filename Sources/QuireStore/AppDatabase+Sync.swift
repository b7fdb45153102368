import Foundation
import GRDB
import QuireCore

// MARK: - Sync bookkeeping

/// What the sync engine and `quire status` read: the outbox, the sync state row, conflicts and
/// the event log.
extension AppDatabase {
    /// Outbox operations in creation order, optionally only those in one state.
    public func outbox(state: OutboxState? = .pending, limit: Int? = nil) throws(StoreError) -> [OutboxOp] {
        try read { db in
            guard let state else { return try Outbox.entries(where: "1", limit: limit, in: db) }
            return try Outbox.entries(where: "state = ?", [state.rawValue], limit: limit, in: db)
        }
    }

    /// The outbox operations of one item, in creation order.
    public func outbox(for itemID: String) throws(StoreError) -> [OutboxOp] {
        try read { db in try Outbox.entries(for: itemID, in: db) }
    }

    /// How many operations wait in each state.
    public func outboxCounts() throws(StoreError) -> OutboxCounts {
        try read { db in
            var counts = OutboxCounts(pending: 0, inFlight: 0, rejected: 0)
            // The running tally (migration "v9 tallies"): counting a million waiting ops took 90 ms.
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT state, n FROM outboxTally")) {
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
        try read { db in try SyncMetaRow.fetch(in: db) }
    }

    /// This store's device id.
    public func deviceID() throws(StoreError) -> String {
        try syncMeta().deviceID
    }

    /// Items that need review, oldest conflict first.
    public func conflicts() throws(StoreError) -> [ConflictRecord] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(ConflictRow.columns) FROM conflict ORDER BY detectedAt, itemId")
            ).map(ConflictRow.decode)
        }
    }

    /// The most recent sync events, newest first.
    public func recentSyncEvents(limit: Int = 20) throws(StoreError) -> [SyncEvent] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(SyncEventRow.columns) FROM syncEvent ORDER BY seq DESC LIMIT ?"),
                arguments: [limit]
            ).map(SyncEventRow.decode)
        }
    }
}
