import GRDB
import QuireCore

// MARK: - Deleting for good

/// `quire rm --purge` and the trash's purge key (SPEC: The trash).
///
/// What purging means: the item is deleted everywhere, and gone from this device. In one
/// transaction: a live item is deleted first (its delete queued as `quire rm` queues it); then
/// its history, drafts and conflict record go, and its row with its short id and links. A
/// delete that has still to reach the server needs its row (the outbox op names it), so that
/// row stays, a tombstone in the trash, until the server has the delete: the write that
/// records the answer (the sync that sent it) removes it (`dropSentPurges`). The id is kept
/// in `purgedItem` so that the tombstone the server sends back, now or on a later pull, is
/// not brought back here (`LocalItem.purged`). Other devices receive an ordinary delete: the
/// item goes to their trash, where they may purge it too; the server's tombstone carries no
/// content and is dropped after its retention. A live copy that comes back later (restored
/// on a device that kept it) is an item again: purging deletes what there is, it does not
/// forbid an id.
extension AppDatabase {
    /// Where a purged item is once `purge` returns.
    public enum PurgeOutcome: Sendable, Equatable {
        /// Gone from this device.
        case gone
        /// Its delete waits to reach the server; the tombstone goes when it has.
        case goneOnceSent
    }

    /// Deletes items for good (see the type's comment), all of them or none.
    public func purge(_ ids: [String]) throws(StoreError) -> [PurgeOutcome] {
        let outcomes: [PurgeOutcome] = try write { db in
            try ids.map { id -> PurgeOutcome in
                guard let before = try ItemRow.fetch(id: id, in: db) else { throw StoreError.notFound(id: id) }
                _ = try recordDelete(before, undoing: nil, in: db)
                for sql in [
                    "DELETE FROM itemVersion WHERE itemId = ?", "DELETE FROM draft WHERE itemId = ?",
                    "DELETE FROM conflict WHERE itemId = ?",
                ] {
                    try db.cachedStatement(sql: sql).execute(arguments: [id])
                }
                let waits = try !Outbox.entries(for: id, in: db).isEmpty
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO purgedItem (id, waiting) VALUES (?, ?)")
                    .execute(arguments: [id, waits])
                if waits { return .goneOnceSent }
                try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
                return .gone
            }
        }
        // Their history went with them: files only they referred to can go too. The purge
        // stands whatever happens here; a file left behind goes at the next purge.
        _ = try? collectAttachments()
        return outcomes
    }

    /// Removes the rows of purged items whose delete has reached the server (their outbox is
    /// empty). Runs inside every write; a partial index makes it free when nothing waits.
    static func dropSentPurges(in db: Database) throws {
        let waiting = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT purgedItem.id FROM purgedItem WHERE purgedItem.waiting = 1
                    AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.itemId = purgedItem.id)
                    """))
        for id in waiting {
            try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "UPDATE purgedItem SET waiting = 0 WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Which of `ids` were purged here.
    static func purgedIDs(among ids: [String], in db: Database) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try String.fetchSet(
            db, sql: "SELECT id FROM purgedItem WHERE id IN (\(marks))", arguments: StatementArguments(ids))
    }
}
