import Foundation
import GRDB
import QuireCore

extension AppDatabase {
    /// This store as sync's storage: sync's transactions on the store's own connections, so
    /// they queue behind local edits instead of meeting them as a second writer on the file.
    public func syncStorage() -> StoreSyncStorage {
        StoreSyncStorage(database: self)
    }
}

/// `SyncStorage` over the local database, through `AppDatabase`'s writer and readers.
///
/// It reads and writes the store's tables with the store's own row mappings (`ItemRow`,
/// `Outbox`, `History`, `ConflictRow`, `SyncMetaRow`, `SyncEventRow`); errors come out as
/// `StoreError`s, as every other store call's do.
public struct StoreSyncStorage: SyncStorage {
    let database: AppDatabase

    public func write<T>(_ durability: CommitDurability, _ body: (any SyncTransaction) throws -> T) throws -> T {
        try database.write(durability) { db in try body(SyncTables(db: db)) }
    }

    public func read<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try database.read { db in try body(SyncTables(db: db)) }
    }
}

// MARK: - The transaction

private struct SyncTables: SyncTransaction {
    let db: Database

    /// Ids per `IN (…)` query, well under SQLite's variable limit.
    static let chunk = 500
    /// Rows per multi-row INSERT: 17 columns × 500 rows stays far below the 32,766 parameters
    /// of current SQLite, and a full page of 500 is one statement, so one new segment of each
    /// full-text index per page (three statements of 200 made a first pull 10% slower).
    static let rowsPerInsert = 500

    func position() throws -> SyncMeta {
        try SyncMetaRow.fetch(in: db)
    }

    func setPosition(_ position: SyncMeta) throws {
        try SyncMetaRow.save(position, in: db)
    }

    func items(_ ids: [String]) throws -> [String: LocalItem] {
        var result: [String: LocalItem] = [:]
        var start = 0
        while start < ids.count {
            let part = Array(ids[start..<min(ids.count, start + Self.chunk)])
            start += Self.chunk
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            let arguments = StatementArguments(part)
            let itemSQL = "SELECT \(ItemRow.columns.joined(separator: ", ")) FROM item WHERE id IN (\(marks))"
            for row in try Row.fetchAll(db, sql: itemSQL, arguments: arguments) {
                let item = try ItemRow.decode(row)
                result[item.id] = LocalItem(id: item.id, item: item)
            }
            for op in try Outbox.entries(where: "itemId IN (\(marks))", arguments, cached: false, in: db) {
                result[op.op.item, default: LocalItem(id: op.op.item)].ops.append(op)
            }
            for id in try AppDatabase.purgedIDs(among: part, in: db) where result[id]?.item == nil {
                result[id, default: LocalItem(id: id)].purged = true
            }
            let conflictSQL = "SELECT \(ConflictRow.columns) FROM conflict WHERE itemId IN (\(marks))"
            for row in try Row.fetchAll(db, sql: conflictSQL, arguments: arguments) {
                let record = try ConflictRow.decode(row)
                result[record.itemID, default: LocalItem(id: record.itemID)].conflict = record
            }
            let unreadableSQL = "SELECT \(UnreadableRow.columns) FROM unreadableItem WHERE itemId IN (\(marks))"
            for row in try Row.fetchAll(db, sql: unreadableSQL, arguments: arguments) {
                let version = UnreadableRow.decode(row)
                result[version.itemID, default: LocalItem(id: version.itemID)].unreadable = version
            }
        }
        return result
    }

    func items(idAfter after: String?, through: String?) throws -> [LocalItem] {
        let ids = try String.fetchAll(
            db,
            sql: """
                SELECT id FROM item WHERE (?1 IS NULL OR id > ?1) AND (?2 IS NULL OR id <= ?2)
                UNION SELECT itemId FROM unreadableItem WHERE (?1 IS NULL OR itemId > ?1) AND (?2 IS NULL OR itemId <= ?2)
                ORDER BY 1
                """,
            arguments: [after, through])
        let found = try items(ids)
        return ids.compactMap { found[$0] }
    }

    func unreadableIDs(notTriedWith keys: String, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: "SELECT itemId FROM unreadableItem WHERE triedKeys IS NOT ? ORDER BY itemId LIMIT ?"),
            arguments: [keys, limit])
    }

    func sendableOps(limit: Int) throws -> [OutboxOp] {
        try Outbox.entries(
            where: "state = 'pending' AND NOT EXISTS (SELECT 1 FROM conflict WHERE conflict.itemId = outbox.itemId)",
            limit: limit, in: db)
    }

    func inFlightOps() throws -> [OutboxOp] {
        try Outbox.entries(where: "state = 'in-flight'", in: db)
    }

    func save(_ new: LocalItem, over old: LocalItem) throws {
        if let item = new.item, item != old.item {
            if old.item == nil {
                try ItemRow.insert(item, in: db)
            } else if let before = old.item, Self.onlyBookkeepingDiffers(before, item) {
                // Only the badge, revision or server version moved (sending, acknowledging): a
                // narrow write.
                try db.cachedStatement(sql: "UPDATE item SET rev = ?, syncState = ?, serverVersion = ? WHERE id = ?")
                    .execute(arguments: [item.rev, item.syncState.rawValue, item.serverVersion?.description, item.id])
            } else {
                try ItemRow.update(item, in: db)
            }
        }
        if new.ops != old.ops {
            let kept = Dictionary(new.ops.filter { $0.seq != 0 }.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
            let gone = old.ops.filter { kept[$0.seq] == nil }.map(\.seq)
            try Outbox.remove(gone, in: db)
            for op in old.ops {
                if let now = kept[op.seq], now != op { try Outbox.update(now, in: db) }
            }
            for op in new.ops where op.seq == 0 { try Outbox.insert(op, in: db) }
        }
        if new.unreadable != old.unreadable {
            if let version = new.unreadable {
                try UnreadableRow.save(version, in: db)
            } else {
                try UnreadableRow.delete(itemID: new.id, in: db)
            }
        }
        if new.conflict != old.conflict {
            if let record = new.conflict {
                try ConflictRow.save(record, in: db)
            } else {
                try db.cachedStatement(sql: "DELETE FROM conflict WHERE itemId = ?").execute(arguments: [new.id])
            }
        }
    }

    /// New items go in with multi-row INSERTs. One statement per item would cost far more than
    /// the row: the system SQLite (3.40) flushes the full-text index to a new segment at every
    /// statement that writes it inside a transaction, and a first pull writes 100k items.
    /// Items whose content changed (a pulled edit) go the same way, as one upsert per batch.
    func save(_ changes: [LocalChange]) throws {
        let fresh = changes.compactMap { $0.old.item == nil ? $0.new.item : nil }
        try insertRows(table: "item", columns: ItemRow.columns, count: fresh.count) { index, values in
            ItemRow.append(fresh[index], to: &values)
        }
        let rewritten = changes.compactMap { change -> Item? in
            guard let old = change.old.item, let new = change.new.item, new != old,
                !Self.onlyBookkeepingDiffers(old, new)
            else { return nil }
            return new
        }
        let rewrittenIDs = Set(rewritten.map(\.id))
        try insertRows(
            table: "item", columns: ItemRow.columns, count: rewritten.count, then: ItemRow.upsertClause
        ) { index, values in
            ItemRow.append(rewritten[index], to: &values)
        }
        for change in changes {
            // The row is written already; what is left is its ops and conflict record.
            var old = change.old
            if old.item == nil || rewrittenIDs.contains(change.new.id) { old.item = change.new.item }
            try save(change.new, over: old)
        }
    }

    func appendHistory(_ entries: [HistoryEntry], at time: Date) throws {
        let recorded = StoreTime.string(from: time)
        try insertRows(table: "itemVersion", columns: History.columns, count: entries.count) { index, values in
            let entry = entries[index]
            History.append(entry.item, origin: entry.origin, opID: entry.opID, recorded: recorded, to: &values)
        }
    }

    func markAcknowledged(_ versions: [AcknowledgedVersion]) throws {
        let statement = try db.cachedStatement(sql: AppDatabase.acknowledgeVersionSQL)
        for version in versions {
            try statement.execute(arguments: [
                version.rev, version.version.description, version.createdAt.map(StoreTime.string(from:)),
                version.updatedAt.map(StoreTime.string(from:)),
                version.doneAt.map(StoreTime.string(from:)), version.itemID, version.opID,
            ])
        }
    }

    func recentVersions(of itemID: String) throws -> [HistoryEntry] {
        let sql = """
            SELECT \(ItemRow.versionColumns), origin, opId
            FROM itemVersion WHERE itemId = ? ORDER BY seq DESC LIMIT ?
            """
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [itemID, recentVersionLimit]).map { row in
            let origin: String = row[21]
            return HistoryEntry(
                item: try ItemRow.decode(row), origin: ChangeOrigin(rawValue: origin) ?? .local, opID: row[22])
        }
    }

    func appendEvents(_ events: [SyncEvent], keeping: Int) throws {
        try SyncEventRow.append(events, keeping: keeping, in: db)
    }

    func newestEvent() throws -> SyncEvent? {
        let sql = "SELECT \(SyncEventRow.columns) FROM syncEvent ORDER BY seq DESC LIMIT 1"
        return try Row.fetchOne(db.cachedStatement(sql: sql)).map(SyncEventRow.decode)
    }

    func restamp(event seq: Int64, at time: Date, message: String) throws {
        try db.cachedStatement(sql: "UPDATE syncEvent SET at = ?, message = ? WHERE seq = ?")
            .execute(arguments: [StoreTime.string(from: time), message, seq])
    }

    func liveVersions() throws -> [(id: String, rev: Int)] {
        // Each item once: its own copy's version, or the newer one that did not open.
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, rev FROM item WHERE deleted = 0 AND rev >= 1
                  AND NOT EXISTS (SELECT 1 FROM unreadableItem u WHERE u.itemId = item.id AND u.rev > item.rev)
                UNION ALL
                SELECT itemId, rev FROM unreadableItem u WHERE deleted = 0 AND rev >= 1
                  AND NOT EXISTS (SELECT 1 FROM item WHERE item.id = u.itemId AND item.rev >= u.rev)
                """
        ).map { ($0[0], $0[1]) }
    }

    func hasOutstandingChanges() throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM outbox WHERE state IN ('pending', 'in-flight'))
                    OR EXISTS (SELECT 1 FROM conflict)
                """) ?? false
    }

    /// True when two versions of an item differ at most in revision and badge.
    static func onlyBookkeepingDiffers(_ old: Item, _ new: Item) -> Bool {
        var old = old
        old.rev = new.rev
        old.syncState = new.syncState
        old.serverVersion = new.serverVersion
        return old == new
    }

    /// Inserts `count` rows in statements of up to `rowsPerInsert` rows each (fewer when this
    /// SQLite takes fewer parameters: builds before 3.32 took only 999); `values` appends row
    /// `index`'s values, one per column.
    private func insertRows(
        table: String, columns: [String], count: Int, then clause: String = "",
        values: (Int, inout RowValues) -> Void
    ) throws {
        let perStatement = max(1, min(Self.rowsPerInsert, db.maximumStatementArgumentCount / columns.count))
        var rows = RowValues()
        var start = 0
        while start < count {
            let end = min(count, start + perStatement)
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: end - start).joined(separator: ", ") + clause
            rows.removeAll()
            for index in start..<end { values(index, &rows) }
            // Only full-size statements are kept prepared: the other sizes come once per call.
            let statement =
                end - start == perStatement ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            try rows.execute(statement)
            start = end
        }
    }
}

extension AppDatabase {
    /// Stamps an acknowledged op's newest history version with the server's revision, version
    /// and times. Found through the item's own versions (`itemVersion_by_item`): there is no
    /// index by op id, and a search by it alone read the whole history once per op.
    static let acknowledgeVersionSQL = """
        UPDATE itemVersion SET rev = ?, serverVersion = ?, createdAt = coalesce(?, createdAt),
            updatedAt = coalesce(?, updatedAt),
            doneAt = CASE WHEN done = 1 THEN coalesce(?, doneAt) ELSE NULL END
        WHERE seq = (SELECT max(seq) FROM itemVersion WHERE itemId = ? AND opId = ?)
        """
}
