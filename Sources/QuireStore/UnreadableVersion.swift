import Foundation
import GRDB

/// A server version of an item that this device received and could not open (an encrypted
/// account's copy altered or moved on the server, or sealed under a key this device lacks).
///
/// It is part of what the device saw of the server: its state hash counts this version, not
/// the older readable copy it may still hold, so the hash equals the server's and an item that
/// does not open never makes a round re-download everything. The copy the device had stays as
/// it was; the record goes when a readable version of the item arrives.
public struct UnreadableVersion: Sendable, Hashable {
    public var itemID: String
    /// The server's revision of the version that did not open.
    public var rev: Int
    /// Whether that version is a tombstone (the state hash leaves those out).
    public var deleted: Bool
    /// Why it did not open, in words.
    public var reason: String
    /// When this device first received that version.
    public var seenAt: Date
    /// The fingerprint of the data keys it was tried with (`DataKeys.fingerprint`); nil when
    /// not known. Once the device holds other keys, the version is read again.
    public var triedKeys: String?

    public init(itemID: String, rev: Int, deleted: Bool, reason: String, seenAt: Date, triedKeys: String? = nil) {
        self.itemID = itemID
        self.rev = rev
        self.deleted = deleted
        self.reason = reason
        self.seenAt = seenAt
        self.triedKeys = triedKeys
    }
}

/// The `unreadableItem` table's one mapping.
enum UnreadableRow {
    static let columns = "itemId, rev, deleted, reason, seenAt, triedKeys"

    static func decode(_ row: Row) -> UnreadableVersion {
        let seen: String = row[4]
        return UnreadableVersion(
            itemID: row[0], rev: row[1], deleted: row[2], reason: row[3],
            seenAt: StoreTime.date(from: seen) ?? Date(timeIntervalSince1970: 0), triedKeys: row[5])
    }

    /// Writes the item's record, replacing the one it had.
    static func save(_ version: UnreadableVersion, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO unreadableItem (\(columns)) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [
                version.itemID, version.rev, version.deleted, version.reason, StoreTime.string(from: version.seenAt),
                version.triedKeys,
            ])
    }

    static func delete(itemID: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM unreadableItem WHERE itemId = ?").execute(arguments: [itemID])
    }
}

extension AppDatabase {
    /// The items whose newest server version this device could not open, oldest first, at
    /// most `limit` (`quire status`, the sync status screen).
    public func unreadableVersions(limit: Int = 200) throws(StoreError) -> [UnreadableVersion] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \(UnreadableRow.columns) FROM unreadableItem ORDER BY seenAt, itemId LIMIT ?"),
                arguments: [limit]
            ).map(UnreadableRow.decode)
        }
    }
}
