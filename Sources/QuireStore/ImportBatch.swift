import Foundation
import GRDB
import QuireCore

/// New items of an import, written a few hundred at a time.
///
/// Why batches: inside a transaction, every statement that reaches the full-text index through
/// the `item` triggers opens a statement savepoint, and FTS5 flushes its pending index data into
/// a new segment at each one. Row by row, ten thousand items make ten thousand tiny segments
/// and endless merging; one `INSERT … SELECT FROM json_each(?)` per batch makes one segment.
/// History versions and create ops go in the same way, which also saves thousands of
/// statement executions.
struct ImportBatch {
    private var rows: [UInt8] = []
    private var versions: [UInt8] = []
    private var ops: [UInt8] = []
    private var count = 0
    private var ids = Set<String>()

    /// Flush after this many items or this many bytes of row text, whichever comes first.
    static let maximumCount = 1000
    static let maximumBytes = 8 << 20

    var isFull: Bool { count >= Self.maximumCount || rows.count >= Self.maximumBytes }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    mutating func append(_ item: Item, opID: String?, createFields: [Field: FieldChange], at time: Date) {
        // One JSON array per row; texts as JSON strings (tags as the JSON text the column
        // stores), booleans as 0 and 1.
        func text(_ value: String?, _ bytes: inout [UInt8]) {
            if let value {
                CompactJSON.appendString(value, to: &bytes)
            } else {
                bytes.append(contentsOf: Array("null".utf8))
            }
            bytes.append(44)
        }
        func flag(_ value: Bool, _ bytes: inout [UInt8]) {
            bytes.append(value ? 49 : 48)
            bytes.append(44)
        }
        func number(_ value: Int, _ bytes: inout [UInt8]) {
            bytes.append(contentsOf: Array(String(value).utf8))
            bytes.append(44)
        }
        let recorded = StoreTime.string(from: time)
        let tags = JSONText.strings(item.tags)
        let doneAt = item.doneAt.map(StoreTime.string(from:))
        let created = StoreTime.string(from: item.createdAt)
        let updated = StoreTime.string(from: item.updatedAt)
        /// The item columns from `kind` to `rev` (shared by `item` and `itemVersion`).
        func itemFields(_ bytes: inout [UInt8]) {
            text(item.kind.rawValue, &bytes)
            text(item.title, &bytes)
            text(item.body, &bytes)
            text(tags, &bytes)
            flag(item.done, &bytes)
            text(doneAt, &bytes)
            text(item.due?.description, &bytes)
            text(item.priority.rawValue, &bytes)
            flag(item.pinned, &bytes)
            text(created, &bytes)
            text(updated, &bytes)
            flag(item.deleted, &bytes)
            number(item.rev, &bytes)
        }
        // item: id, kind … rev, syncState (`ItemRow.columns` order)
        rows.append(count == 0 ? 91 : 44)
        rows.append(91)
        text(item.id, &rows)
        itemFields(&rows)
        CompactJSON.appendString(item.syncState.rawValue, to: &rows)
        rows.append(93)
        // itemVersion: itemId, recordedAt, origin, opId, kind … rev
        versions.append(count == 0 ? 91 : 44)
        versions.append(91)
        text(item.id, &versions)
        text(recorded, &versions)
        text(ChangeOrigin.import.rawValue, &versions)
        text(opID, &versions)
        itemFields(&versions)
        versions.removeLast()
        versions.append(93)
        // outbox: opId, itemId, kind, baseRev, fields, createdAt
        if let opID {
            ops.append(ops.isEmpty ? 91 : 44)
            ops.append(91)
            text(opID, &ops)
            text(item.id, &ops)
            text(OpKind.create.rawValue, &ops)
            number(item.rev, &ops)
            text(JSONText.fieldChanges(createFields), &ops)
            CompactJSON.appendString(recorded, to: &ops)
            ops.append(93)
        }
        count += 1
        ids.insert(item.id)
    }

    private static func insertSQL(_ table: String, _ columns: [String]) -> String {
        let values = columns.indices.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values) FROM json_each(?)"
    }

    static let itemSQL = insertSQL("item", ItemRow.columns)
    static let versionSQL = insertSQL("itemVersion", History.columns)
    static let opSQL = insertSQL("outbox", ["opId", "itemId", "kind", "baseRev", "fields", "createdAt"])

    /// Writes the items, their create ops and their history versions; empties the batch.
    mutating func flush(in db: Database) throws {
        guard count > 0 else { return }
        rows.append(93)
        versions.append(93)
        try db.execute(sql: Self.itemSQL, arguments: [String(decoding: rows, as: UTF8.self)])
        if !ops.isEmpty {
            ops.append(93)
            try db.execute(sql: Self.opSQL, arguments: [String(decoding: ops, as: UTF8.self)])
        }
        try db.execute(sql: Self.versionSQL, arguments: [String(decoding: versions, as: UTF8.self)])
        rows.removeAll(keepingCapacity: true)
        versions.removeAll(keepingCapacity: true)
        ops.removeAll(keepingCapacity: true)
        count = 0
        ids.removeAll(keepingCapacity: true)
    }
}
