import Foundation
import GRDB
import QuireCore

/// New items of an import, written a thousand at a time.
///
/// Why batches: inside a transaction, every statement that reaches the full-text index through
/// the `item` triggers opens a statement savepoint, and FTS5 flushes its pending index data into
/// a new segment at each one. Row by row, ten thousand items make ten thousand tiny segments
/// and endless merging; one multi-row `INSERT` per batch makes one segment. History versions
/// and create ops go in the same way, which also saves thousands of statement executions.
/// The values are bound as parameters, never packed into JSON text for SQLite to take apart
/// again: that cost more than the insert itself.
struct ImportBatch {
    private var items: [DatabaseValue] = []
    private var versions: [DatabaseValue] = []
    private var ops: [DatabaseValue] = []
    private var count = 0
    private var opCount = 0
    private var textBytes = 0
    private var ids = Set<String>()

    /// Flush after this many items or this many bytes of text, whichever comes first. A
    /// thousand rows of 18 columns stay under SQLite's 32,766 parameters; the bytes bound what
    /// a batch of long notes holds in memory (each text is held by the batch and by the
    /// statement that last wrote it).
    static let maximumCount = 1000
    static let maximumBytes = 2 << 20

    var isFull: Bool { count >= Self.maximumCount || textBytes >= Self.maximumBytes }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    mutating func append(_ item: Item, opID: String?, createFields: [Field: FieldChange], at time: Date) {
        let recorded = StoreTime.string(from: time).databaseValue
        let id = item.id.databaseValue
        // The columns from `kind` to `rev`, shared by `item` and `itemVersion`.
        let fields: [DatabaseValue] = [
            item.kind.rawValue.databaseValue, item.title.databaseValue, item.body.databaseValue,
            JSONText.strings(item.tags).databaseValue, item.done.databaseValue,
            item.doneAt.map(StoreTime.string(from:)).databaseValue, item.due?.description.databaseValue ?? .null,
            item.priority.rawValue.databaseValue, item.pinned.databaseValue,
            StoreTime.string(from: item.createdAt).databaseValue, StoreTime.string(from: item.updatedAt).databaseValue,
            item.deleted.databaseValue, item.rev.databaseValue,
        ]
        // item: `ItemRow.columns` order
        items.append(id)
        items.append(contentsOf: fields)
        items.append(item.syncState.rawValue.databaseValue)
        items.append(item.serverVersion?.description.databaseValue ?? .null)
        // itemVersion: `History.columns` order
        versions.append(id)
        versions.append(recorded)
        versions.append(ChangeOrigin.import.rawValue.databaseValue)
        versions.append(opID?.databaseValue ?? .null)
        versions.append(contentsOf: fields)
        versions.append(.null)  // an imported version is never a server version
        if let opID {
            ops.append(contentsOf: [
                opID.databaseValue, id, OpKind.create.rawValue.databaseValue, item.rev.databaseValue,
                JSONText.fieldChanges(createFields).databaseValue, recorded,
            ])
            opCount += 1
        }
        count += 1
        textBytes += item.title.utf8.count + item.body.utf8.count
        ids.insert(item.id)
    }

    static let opColumns = ["opId", "itemId", "kind", "baseRev", "fields", "createdAt"]

    /// `INSERT INTO table (columns) VALUES (?, …), (?, …), …` for `rows` rows.
    private static func insertSQL(_ table: String, _ columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Writes the items, their create ops and their history versions; empties the batch.
    mutating func flush(in db: Database) throws {
        guard count > 0 else { return }
        func insert(_ table: String, _ columns: [String], _ values: [DatabaseValue], rows: Int) throws {
            // A full batch reuses its prepared statement. Any other size is prepared for the
            // once: a cached statement keeps its last arguments, and a cache of every size a
            // run of long notes makes would keep megabytes of text alive.
            let sql = Self.insertSQL(table, columns, rows: rows)
            let statement = try rows == Self.maximumCount ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            try statement.execute(arguments: StatementArguments(values))
        }
        try insert("item", ItemRow.columns, items, rows: count)
        if opCount > 0 { try insert("outbox", Self.opColumns, ops, rows: opCount) }
        try insert("itemVersion", History.columns, versions, rows: count)
        // Short ids now, while the batch's pages are in the cache: left to the end of a large
        // import, each lookup reads a cold page back from a WAL of gigabytes (90 s of a
        // million-item import, against under 5 s here).
        try AppDatabase.assignShortIDs(in: db)
        items.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
        ops.removeAll(keepingCapacity: true)
        count = 0
        opCount = 0
        textBytes = 0
        ids.removeAll(keepingCapacity: true)
    }
}
