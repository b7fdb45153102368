import Foundation
import GRDB
import QuireCore

/// How items map to rows of `item` and `itemVersion`.
///
/// Decoding is positional over a fixed column list (no Codable, no per-row dictionary) because
/// listings decode tens of thousands of rows per command.
enum ItemRow {
    /// The item columns in decoding order; `select(from:)` and `decode(_:at:)` agree on it.
    static let columns = [
        "id", "kind", "title", "body", "tags", "done", "doneAt", "due", "priority", "pinned",
        "createdAt", "updatedAt", "deleted", "rev", "syncState", "serverVersion", "project",
        "recur", "wait", "scheduled", "attachments",
    ]

    /// An `itemVersion` row's columns in `columns` order (a version carries no badge).
    static let versionColumns = """
        itemId, kind, title, body, tags, done, doneAt, due, priority, pinned, createdAt, updatedAt, deleted, rev,
        'synced', serverVersion, project, recur, wait, scheduled, attachments
        """

    /// `t.id, t.kind, …` for a table alias.
    static func select(from alias: String) -> String {
        columns.map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// Decodes the item whose columns start at `offset` (in `columns` order).
    static func decode(_ row: Row, at offset: Int = 0) throws -> Item {
        func text(_ index: Int) -> String { row[offset + index] ?? "" }
        func time(_ index: Int) throws -> Date? {
            guard let raw: String = row[offset + index] else { return nil }
            guard let date = StoreTime.date(from: raw) else { throw DecodeFailure("bad time \(raw)") }
            return date
        }
        let id = text(0)
        guard let kind = ItemKind(rawValue: text(1)) else { throw DecodeFailure("bad kind in item \(id)") }
        guard let tags = JSONText.parseStrings(text(4)) else { throw DecodeFailure("bad tags in item \(id)") }
        let dueText: String? = row[offset + 7]
        guard let priority = Priority(rawValue: text(8)) else { throw DecodeFailure("bad priority in item \(id)") }
        let created = try time(10) ?? Date(timeIntervalSince1970: 0)
        var item = Item(
            id: id, kind: kind, title: text(2), body: text(3), tags: [],
            done: row[offset + 5], doneAt: try time(6), due: dueText.flatMap(Day.init),
            priority: priority, pinned: row[offset + 9], createdAt: created,
            updatedAt: try time(11), deleted: row[offset + 12], rev: row[offset + 13],
            syncState: SyncState(rawValue: text(14)) ?? .pending,
            serverVersion: (row[offset + 15] as String?).flatMap(ServerVersion.init))
        item.project = row[offset + 16]
        if let rule: String = row[offset + 17] {
            guard let recur = Recurrence(rule) else { throw DecodeFailure("bad recurrence in item \(id)") }
            item.recur = recur
        }
        item.wait = (row[offset + 18] as String?).flatMap(Day.init)
        item.scheduled = (row[offset + 19] as String?).flatMap(Day.init)
        if let references: String = row[offset + 20] {
            guard let texts = JSONText.parseStrings(references), let files = try? Attachments.parse(texts) else {
                throw DecodeFailure("bad attachments in item \(id)")
            }
            item.attachments = files
        }
        // Tags are stored normalized; skip `Item.init`'s normalizing pass for speed.
        item.tags = tags
        return item
    }

    /// Appends the values of `columns` for an item, in order: all of them, or from `kind` on.
    static func append(_ item: Item, to values: inout RowValues, includingID: Bool = true) {
        if includingID { values.append(item.id) }
        appendContent(item, to: &values)
        values.append(item.syncState.rawValue)
        values.append(item.serverVersion?.description)
        appendPlanning(item, to: &values)
    }

    /// Appends `project`, `recur`, `wait`, `scheduled` and `attachments`, the columns an item row and a history
    /// version add after the ones they share from the start.
    static func appendPlanning(_ item: Item, to values: inout RowValues) {
        values.append(item.project)
        values.append(item.recur?.description)
        values.append(item.wait?.description)
        values.append(item.scheduled?.description)
        // NULL for none, so `has:attachment` reads the column alone.
        values.append(item.attachments.isEmpty ? nil : JSONText.strings(item.attachments.map(\.wireText)))
    }

    /// Appends the columns from `kind` to `rev`, which an item row and a history version share.
    static func appendContent(_ item: Item, to values: inout RowValues) {
        values.append(item.kind.rawValue)
        values.append(item.title)
        values.append(item.body)
        values.append(JSONText.strings(item.tags))
        values.append(item.done)
        values.append(item.doneAt.map(StoreTime.string(from:)))
        values.append(item.due?.description)
        values.append(item.priority.rawValue)
        values.append(item.pinned)
        values.append(StoreTime.string(from: item.createdAt))
        values.append(StoreTime.string(from: item.updatedAt))
        values.append(item.deleted)
        values.append(item.rev)
    }

    static let insertSQL =
        "INSERT INTO item (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"

    /// Updates every column but `id`; the search trigger only fires when title, body or tags differ.
    static let updateSQL =
        "UPDATE item SET " + columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"

    /// Turns a multi-row INSERT of items into an update of the rows with those ids (the row
    /// keeps its `rowNumber`, which the search index points at).
    static let upsertClause =
        " ON CONFLICT (id) DO UPDATE SET "
        + columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    static func insert(_ item: Item, in db: Database) throws {
        var values = RowValues()
        append(item, to: &values)
        try values.execute(db.cachedStatement(sql: insertSQL))
    }

    static func update(_ item: Item, in db: Database) throws {
        var values = RowValues()
        append(item, to: &values, includingID: false)
        values.append(item.id)
        try values.execute(db.cachedStatement(sql: updateSQL))
    }

    /// Which of `ids` the store holds, in one statement.
    static func existingIDs(_ ids: [String], in db: Database) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let sql =
            "SELECT id FROM item WHERE id IN (" + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")"
        // A full group reuses its prepared statement; any other size is prepared for the once.
        let statement =
            try ids.count == AppDatabase.importGroupSize ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        return try String.fetchSet(statement, arguments: StatementArguments(ids))
    }

    static func fetch(id: String, in db: Database) throws -> Item? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns.joined(separator: ", ")) FROM item WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id]).map { try decode($0) }
    }
}

/// A row that does not hold what the schema promises (only a damaged file can do that).
struct DecodeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
