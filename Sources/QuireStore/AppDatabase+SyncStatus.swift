import Foundation
import GRDB
import QuireCore

/// An outbox operation the server refused for good, with what the sync status screen says
/// about it.
public struct DeadLetterRecord: Sendable, Hashable {
    public var opID: String
    public var itemID: String
    /// The item's current title.
    public var title: String
    /// Why the server refused it (the op's last error).
    public var reason: String
    /// When it was set aside, from the event log; when the op was made if the log has moved on.
    public var at: Date
}

/// An item that needs review, as a line of the sync status screen.
public struct ConflictTitle: Sendable, Hashable {
    public var itemID: String
    /// The item's current (local) title.
    public var title: String
    public var detectedAt: Date
}

// MARK: - Sync status reads

/// Reads for the TUI's sync status screen: the dead letters and conflicts one by one, where
/// `quire status` only counts them. Reads only, over the existing tables.
extension AppDatabase {
    /// Dead letters in the order their ops were made, at most `limit`.
    public func deadLetters(limit: Int = 200) throws(StoreError) -> [DeadLetterRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT o.opId, o.itemId, i.title, o.lastError, o.createdAt,
                           (SELECT max(e.at) FROM syncEvent e WHERE e.opId = o.opId AND e.kind = 'DEAD_LETTER')
                    FROM outbox o JOIN item i ON i.id = o.itemId
                    WHERE o.state = 'rejected'
                    ORDER BY o.seq
                    LIMIT ?
                    """,
                arguments: [limit]
            ).map { row in
                let created: String = row[4]
                let setAside: String? = row[5]
                let reason: String? = row[3]
                return DeadLetterRecord(
                    opID: row[0], itemID: row[1], title: row[2], reason: reason ?? "refused by the server",
                    at: StoreTime.date(from: setAside ?? created) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }

    /// Items that need review with their current titles, oldest conflict first, at most `limit`.
    public func conflictTitles(limit: Int = 200) throws(StoreError) -> [ConflictTitle] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.itemId, i.title, c.detectedAt
                    FROM conflict c JOIN item i ON i.id = c.itemId
                    ORDER BY c.detectedAt, c.itemId
                    LIMIT ?
                    """,
                arguments: [limit]
            ).map { row in
                let detected: String = row[2]
                return ConflictTitle(
                    itemID: row[0], title: row[1],
                    detectedAt: StoreTime.date(from: detected) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }

    /// The titles of those of `ids` this device holds (the sync status screen's unreadable items).
    public func titles(of ids: [String]) throws(StoreError) -> [String: String] {
        try read { db in
            let statement = try db.cachedStatement(sql: "SELECT title FROM item WHERE id = ?")
            var result: [String: String] = [:]
            for id in ids {
                if let title = try String.fetchOne(statement, arguments: [id]) { result[id] = title }
            }
            return result
        }
    }
}
