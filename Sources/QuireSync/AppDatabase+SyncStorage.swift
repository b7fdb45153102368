import Foundation
import GRDB
import QuireCore
import QuireStore

extension AppDatabase {
    /// This store as sync's storage: sync's transactions on the same database file.
    public func syncStorage() throws -> SQLiteSyncStorage {
        try SQLiteSyncStorage(path: path)
    }
}

/// `SyncStorage` over the local SQLite database, on a connection pool of its own.
///
/// It reads and writes the store's tables (`item`, `itemVersion`, `outbox`, `conflict`,
/// `syncMeta`, `syncEvent`) exactly as the store's frozen schema defines them, with the
/// store's own encoders for times (`StoreTime`) and JSON (`JSONText`). SQLite serializes its
/// writes with every other connection's; other readers see them through `PRAGMA data_version`
/// as they see another process's. Open it after `AppDatabase.open`, which runs the migrations.
public final class SQLiteSyncStorage: SyncStorage {
    private let pool: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.maximumReaderCount = 2
        configuration.label = "Quire.sync"
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try pool.write { db in try body(Transaction(db: db)) }
    }

    public func read<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try pool.read { db in try body(Transaction(db: db)) }
    }
}

// MARK: - The transaction

private struct Transaction: SyncTransaction {
    let db: Database

    /// Ids per `IN (…)` query, well under SQLite's variable limit.
    static let chunk = 500

    func position() throws -> SyncPosition {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT deviceId, cursor, epoch, stateHash, lastSuccessAt FROM syncMeta WHERE id = 1")
        else { throw SyncStorageError("the sync state row is missing") }
        let last: String? = row[4]
        return SyncPosition(deviceID: row[0], cursor: row[1], epoch: row[2], stateHash: row[3],
                            lastSuccess: last.flatMap(StoreTime.date(from:)))
    }

    func setPosition(_ position: SyncPosition) throws {
        try db.execute(
            sql: "UPDATE syncMeta SET cursor = ?, epoch = ?, stateHash = ?, lastSuccessAt = ? WHERE id = 1",
            arguments: [position.cursor, position.epoch, position.stateHash,
                        position.lastSuccess.map(StoreTime.string(from:))])
    }

    func items(_ ids: [String]) throws -> [String: LocalItem] {
        var result: [String: LocalItem] = [:]
        var start = 0
        while start < ids.count {
            let part = Array(ids[start..<min(ids.count, start + Self.chunk)])
            start += Self.chunk
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            let arguments = StatementArguments(part)
            for row in try Row.fetchAll(db, sql: "SELECT \(SyncRows.itemColumns) FROM item WHERE id IN (\(marks))",
                                        arguments: arguments) {
                let item = try SyncRows.item(row)
                result[item.id] = LocalItem(id: item.id, item: item)
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT \(SyncRows.outboxColumns) FROM outbox WHERE itemId IN (\(marks)) ORDER BY seq",
                arguments: arguments) {
                let op = try SyncRows.outboxOp(row)
                result[op.op.item, default: LocalItem(id: op.op.item)].ops.append(op)
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT \(SyncRows.conflictColumns) FROM conflict WHERE itemId IN (\(marks))",
                arguments: arguments) {
                let record = try SyncRows.conflict(row)
                result[record.itemID, default: LocalItem(id: record.itemID)].conflict = record
            }
        }
        return result
    }

    func items(idAfter after: String?, through: String?) throws -> [LocalItem] {
        let ids = try String.fetchAll(
            db, sql: "SELECT id FROM item WHERE (?1 IS NULL OR id > ?1) AND (?2 IS NULL OR id <= ?2) ORDER BY id",
            arguments: [after, through])
        let found = try items(ids)
        return ids.compactMap { found[$0] }
    }

    func sendableOps(limit: Int) throws -> [OutboxOp] {
        try Row.fetchAll(db, sql: """
            SELECT \(SyncRows.outboxColumns) FROM outbox
            WHERE state = 'pending' AND NOT EXISTS (SELECT 1 FROM conflict WHERE conflict.itemId = outbox.itemId)
            ORDER BY seq LIMIT ?
            """, arguments: [limit]).map(SyncRows.outboxOp)
    }

    func inFlightOps() throws -> [OutboxOp] {
        try Row.fetchAll(db, sql: "SELECT \(SyncRows.outboxColumns) FROM outbox WHERE state = 'in-flight' ORDER BY seq")
            .map(SyncRows.outboxOp)
    }

    func save(_ new: LocalItem, over old: LocalItem) throws {
        if let item = new.item, item != old.item {
            if old.item == nil {
                try db.cachedStatement(sql: SyncRows.insertItemSQL).execute(arguments: StatementArguments(SyncRows.itemArguments(item)))
            } else if let before = old.item, SyncRows.onlyBookkeepingDiffers(before, item) {
                // Only the badge or the revision moved (sending, acknowledging): a narrow write.
                try db.cachedStatement(sql: "UPDATE item SET rev = ?, syncState = ? WHERE id = ?")
                    .execute(arguments: [item.rev, item.syncState.rawValue, item.id])
            } else {
                var arguments = SyncRows.itemArguments(item)
                arguments.removeFirst()
                arguments.append(item.id)
                try db.cachedStatement(sql: SyncRows.updateItemSQL).execute(arguments: StatementArguments(arguments))
            }
        }
        if new.ops != old.ops {
            let kept = Dictionary(new.ops.filter { $0.seq != 0 }.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
            for op in old.ops {
                guard let now = kept[op.seq] else {
                    try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?").execute(arguments: [op.seq])
                    continue
                }
                if now != op {
                    try db.cachedStatement(
                        sql: "UPDATE outbox SET state = ?, attempts = ?, lastError = ?, baseRev = ?, fields = ? WHERE seq = ?"
                    ).execute(arguments: [now.state.rawValue, now.attempts, now.lastError, now.op.baseRev,
                                    now.op.fields.map(JSONText.fieldChanges), op.seq])
                }
            }
            for op in new.ops where op.seq == 0 {
                try db.cachedStatement(sql: """
                    INSERT INTO outbox (opId, itemId, kind, baseRev, fields, createdAt, attempts, state, lastError)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [
                        op.op.op, op.op.item, op.op.kind.rawValue, op.op.baseRev, op.op.fields.map(JSONText.fieldChanges),
                        StoreTime.string(from: op.createdAt), op.attempts, op.state.rawValue, op.lastError,
                    ])
            }
        }
        if new.conflict != old.conflict {
            if let record = new.conflict {
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO conflict (itemId, base, local, remote, fields, detectedAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [
                        record.itemID, try record.base.map(SyncRows.json), try SyncRows.json(record.local),
                        try SyncRows.json(record.remote), JSONText.strings(record.fields.map(\.rawValue)),
                        StoreTime.string(from: record.detectedAt),
                    ])
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
        try insertRows(table: "item", columns: SyncRows.itemColumnList, count: fresh.count) { index, arguments in
            arguments += SyncRows.itemArguments(fresh[index])
        }
        let rewritten = changes.compactMap { change -> Item? in
            guard let old = change.old.item, let new = change.new.item, new != old,
                  !SyncRows.onlyBookkeepingDiffers(old, new) else { return nil }
            return new
        }
        let rewrittenIDs = Set(rewritten.map(\.id))
        try insertRows(
            table: "item", columns: SyncRows.itemColumnList, count: rewritten.count, then: SyncRows.upsertClause
        ) { index, arguments in
            arguments += SyncRows.itemArguments(rewritten[index])
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
        try insertRows(table: "itemVersion", columns: SyncRows.historyColumnList, count: entries.count) { index, arguments in
            let entry = entries[index]
            let values = SyncRows.itemArguments(entry.item)
            arguments += [entry.item.id, recorded, entry.origin.rawValue, entry.opID]
            arguments += values[1..<14]
        }
    }

    /// Inserts `count` rows in statements of up to `SyncRows.rowsPerInsert` rows each (fewer
    /// when this SQLite takes fewer parameters: builds before 3.32 took only 999);
    /// `values` appends row `index`'s values, one per column.
    private func insertRows(
        table: String, columns: [String], count: Int, then clause: String = "",
        values: (Int, inout [(any DatabaseValueConvertible)?]) -> Void
    ) throws {
        let perStatement = max(1, min(SyncRows.rowsPerInsert, db.maximumStatementArgumentCount / columns.count))
        var start = 0
        while start < count {
            let end = min(count, start + perStatement)
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: end - start).joined(separator: ", ") + clause
            var arguments: [(any DatabaseValueConvertible)?] = []
            arguments.reserveCapacity((end - start) * columns.count)
            for index in start..<end { values(index, &arguments) }
            // Only full-size statements are kept prepared: the other sizes come once per call.
            let statement = end - start == perStatement ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            try statement.execute(arguments: StatementArguments(arguments))
            start = end
        }
    }

    func appendEvents(_ events: [SyncEvent], keeping: Int) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO syncEvent (at, kind, message, itemId, opId) VALUES (?, ?, ?, ?, ?)")
        for event in events {
            try statement.execute(arguments: [StoreTime.string(from: event.at), event.kind, event.message,
                                              event.itemID, event.opID])
        }
        try db.execute(sql: "DELETE FROM syncEvent WHERE seq <= (SELECT max(seq) FROM syncEvent) - ?",
                       arguments: [keeping])
    }

    func liveVersions() throws -> [(id: String, rev: Int)] {
        try Row.fetchAll(db, sql: "SELECT id, rev FROM item WHERE deleted = 0 AND rev >= 1").map { ($0[0], $0[1]) }
    }

    func hasOutstandingChanges() throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM outbox WHERE state IN ('pending', 'in-flight'))
                OR EXISTS (SELECT 1 FROM conflict)
            """) ?? false
    }
}

/// How sync's rows map to the store's columns.
enum SyncRows {
    static let itemColumnList = [
        "id", "kind", "title", "body", "tags", "done", "doneAt", "due", "priority", "pinned",
        "createdAt", "updatedAt", "deleted", "rev", "syncState",
    ]
    static let itemColumns = itemColumnList.joined(separator: ", ")
    static let historyColumnList = [
        "itemId", "recordedAt", "origin", "opId", "kind", "title", "body", "tags", "done", "doneAt", "due",
        "priority", "pinned", "createdAt", "updatedAt", "deleted", "rev",
    ]
    /// Rows per multi-row INSERT: 17 columns × 200 rows stays far below the 32,766 parameters
    /// of current SQLite, and a full page of 500 takes three statements.
    static let rowsPerInsert = 200
    static let insertItemSQL = "INSERT INTO item (\(itemColumns)) VALUES (\(itemColumnList.map { _ in "?" }.joined(separator: ", ")))"
    /// Turns a multi-row INSERT of items into an update of the rows with those ids (the row
    /// keeps its `rowNumber`, which the search index points at).
    static let upsertClause = " ON CONFLICT (id) DO UPDATE SET "
        + itemColumnList.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    static let updateItemSQL = "UPDATE item SET " + itemColumnList.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
        + " WHERE id = ?"
    static let outboxColumns = "seq, opId, itemId, kind, baseRev, fields, createdAt, attempts, state, lastError"
    static let conflictColumns = "itemId, base, local, remote, fields, detectedAt"

    /// True when two versions of an item differ at most in revision and badge.
    static func onlyBookkeepingDiffers(_ old: Item, _ new: Item) -> Bool {
        var old = old
        old.rev = new.rev
        old.syncState = new.syncState
        return old == new
    }

    static func itemArguments(_ item: Item) -> [(any DatabaseValueConvertible)?] {
        [
            item.id, item.kind.rawValue, item.title, item.body, JSONText.strings(item.tags),
            item.done, item.doneAt.map(StoreTime.string(from:)), item.due?.description,
            item.priority.rawValue, item.pinned, StoreTime.string(from: item.createdAt),
            StoreTime.string(from: item.updatedAt), item.deleted, item.rev, item.syncState.rawValue,
        ]
    }

    static func item(_ row: Row) throws -> Item {
        func time(_ index: Int) throws -> Date? {
            guard let text: String = row[index] else { return nil }
            guard let date = StoreTime.date(from: text) else { throw SyncStorageError("bad time \(text)") }
            return date
        }
        let id: String = row[0]
        let kindText: String = row[1]
        let tagsText: String = row[4]
        let priorityText: String = row[8]
        let stateText: String = row[14]
        let dueText: String? = row[7]
        guard let kind = ItemKind(rawValue: kindText), let priority = Priority(rawValue: priorityText),
              let tags = JSONText.parseStrings(tagsText)
        else { throw SyncStorageError("item \(id) does not hold what the schema promises") }
        var item = Item(
            id: id, kind: kind, title: row[2], body: row[3], tags: [], done: row[5], doneAt: try time(6),
            due: dueText.flatMap(Day.init), priority: priority, pinned: row[9],
            createdAt: try time(10) ?? Date(timeIntervalSince1970: 0), updatedAt: try time(11),
            deleted: row[12], rev: row[13], syncState: SyncState(rawValue: stateText) ?? .pending)
        item.tags = tags
        return item
    }

    static func outboxOp(_ row: Row) throws -> OutboxOp {
        let kindText: String = row[3]
        let fieldsText: String? = row[5]
        let createdText: String = row[6]
        let stateText: String = row[8]
        guard let kind = OpKind(rawValue: kindText), let state = OutboxState(rawValue: stateText) else {
            throw SyncStorageError("an outbox row does not hold what the schema promises")
        }
        return OutboxOp(
            seq: row[0],
            op: Op(op: row[1], item: row[2], kind: kind, baseRev: row[4],
                   fields: try fieldsText.map(JSONText.parseFieldChanges)),
            state: state, attempts: row[7], lastError: row[9],
            createdAt: StoreTime.date(from: createdText) ?? Date(timeIntervalSince1970: 0))
    }

    static func conflict(_ row: Row) throws -> ConflictRecord {
        let decoder = JSONDecoder()
        func item(_ text: String) throws -> Item { try decoder.decode(Item.self, from: Data(text.utf8)) }
        let base: String? = row[1]
        let fields: String = row[4]
        let detected: String = row[5]
        return ConflictRecord(
            itemID: row[0], base: try base.map(item), local: try item(row[2]), remote: try item(row[3]),
            fields: (JSONText.parseStrings(fields) ?? []).compactMap(Field.init(rawValue:)),
            detectedAt: StoreTime.date(from: detected) ?? Date(timeIntervalSince1970: 0))
    }

    static func json(_ item: Item) throws -> String {
        String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
    }
}

public struct SyncStorageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
