import Foundation
import GRDB
import QuireCore

/// New items of an import, written a few hundred at a time.
///
/// Why batches: inside a transaction, every statement that reaches the full-text index through
/// the `item` triggers opens a statement savepoint, and FTS5 flushes its pending index data into
/// a new segment at each one. Row by row, ten thousand items make ten thousand tiny segments
/// and endless merging; one `INSERT … SELECT FROM json_each(?)` per batch makes one segment.
/// History versions and create ops (no index involved) keep their one-row statements.
struct ImportBatch {
    private var rows: [UInt8] = []
    private var pending: [(item: Item, opID: String?, fields: [Field: FieldChange], at: Date)] = []
    private var ids = Set<String>()

    /// Flush after this many items or this many bytes of row text, whichever comes first.
    static let maximumCount = 1000
    static let maximumBytes = 8 << 20

    var isFull: Bool { pending.count >= Self.maximumCount || rows.count >= Self.maximumBytes }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    mutating func append(_ item: Item, opID: String?, createFields: [Field: FieldChange], at time: Date) {
        rows.append(pending.isEmpty ? 91 : 44)
        // One JSON array per row, in `ItemRow.columns` order; tags travel as the JSON text the
        // column stores, booleans as 0 and 1.
        func text(_ value: String?) {
            if let value { JSONText.appendString(value, to: &rows) } else { rows.append(contentsOf: Array("null".utf8)) }
        }
        func flag(_ value: Bool) { rows.append(value ? 49 : 48) }
        rows.append(91)
        text(item.id); rows.append(44)
        text(item.kind.rawValue); rows.append(44)
        text(item.title); rows.append(44)
        text(item.body); rows.append(44)
        text(JSONText.strings(item.tags)); rows.append(44)
        flag(item.done); rows.append(44)
        text(item.doneAt.map(StoreTime.string(from:))); rows.append(44)
        text(item.due?.description); rows.append(44)
        text(item.priority.rawValue); rows.append(44)
        flag(item.pinned); rows.append(44)
        text(StoreTime.string(from: item.createdAt)); rows.append(44)
        text(StoreTime.string(from: item.updatedAt)); rows.append(44)
        flag(item.deleted); rows.append(44)
        rows.append(contentsOf: Array(String(item.rev).utf8)); rows.append(44)
        text(item.syncState.rawValue)
        rows.append(93)
        pending.append((item, opID, createFields, time))
        ids.insert(item.id)
    }

    static let insertSQL: String = {
        let columns = ItemRow.columns
        let values = columns.indices.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ")
        return "INSERT INTO item (\(columns.joined(separator: ", "))) SELECT \(values) FROM json_each(?)"
    }()

    /// Writes the items, then their create ops and history versions; empties the batch.
    mutating func flush(in db: Database) throws {
        guard !pending.isEmpty else { return }
        rows.append(93)
        try db.execute(sql: Self.insertSQL, arguments: [String(decoding: rows, as: UTF8.self)])
        for (item, opID, fields, time) in pending {
            if let opID {
                try Outbox.insert(opID: opID, item: item, kind: .create, fields: fields, createdAt: time, in: db)
            }
            try History.insert(item, origin: .import, opID: opID, at: time, in: db)
        }
        rows.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
    }
}
