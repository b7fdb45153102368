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
/// The values are bound as parameters (`RowValues`), never packed into JSON text for SQLite to
/// take apart again: that cost more than the insert itself.
struct ImportBatch {
    private var items = RowValues()
    private var versions = RowValues()
    private var ops = RowValues()
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
        let recorded = StoreTime.string(from: time)
        ItemRow.append(item, to: &items)
        // An imported version is never a server version (`History.append` leaves it out).
        History.append(item, origin: .import, opID: opID, recorded: recorded, to: &versions)
        if let opID {
            ops.append(opID)
            ops.append(item.id)
            ops.append(OpKind.create.rawValue)
            ops.append(item.rev)
            ops.append(JSONText.fieldChanges(createFields))
            ops.append(recorded)
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
        func insert(_ table: String, _ columns: [String], _ values: RowValues, rows: Int) throws {
            // A full batch reuses its prepared statement. Any other size is prepared for the
            // once: a cache of every size a run of long notes makes would grow without end.
            let sql = Self.insertSQL(table, columns, rows: rows)
            let statement = try rows == Self.maximumCount ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            try values.execute(statement)
        }
        try insert("item", ItemRow.columns, items, rows: count)
        if opCount > 0 { try insert("outbox", Self.opColumns, ops, rows: opCount) }
        try insert("itemVersion", History.columns, versions, rows: count)
        // Short ids now, while the batch's pages are in the cache: left to the end of a large
        // import, each lookup reads a cold page back from a WAL of gigabytes (90 s of a
        // million-item import, against under 5 s here).
        try AppDatabase.assignShortIDs(in: db)
        items.removeAll()
        versions.removeAll()
        ops.removeAll()
        count = 0
        opCount = 0
        textBytes = 0
        ids.removeAll(keepingCapacity: true)
    }
}
