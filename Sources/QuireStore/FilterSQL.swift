import GRDB
import QuireCore

/// `Filter` as SQL over alias `item`: the store's reading of what `Filter.admits` says in
/// memory (the tests hold the two to each other on generated items and filters).
enum FilterSQL {
    /// The condition and its arguments; `1` for the empty filter.
    /// `linkKeys` gives, for the target of a `links:` term, the link keys that reach it (the
    /// store looks the item up: see `AppDatabase.linkKeys(reachingTyped:in:)`).
    static func condition(_ filter: Filter, linkKeys: (String) throws -> [String]) rethrows
        -> (sql: String, arguments: StatementArguments)
    {
        var arguments = StatementArguments()
        let sql = try condition(filter, linkKeys, &arguments)
        return (sql, arguments)
    }

    private static func condition(
        _ filter: Filter, _ linkKeys: (String) throws -> [String], _ arguments: inout StatementArguments
    ) rethrows -> String {
        switch filter {
        case .all: return "1"
        case .term(let term): return try condition(term, linkKeys, &arguments)
        case .and(let parts):
            return try "(" + parts.map { try condition($0, linkKeys, &arguments) }.joined(separator: " AND ") + ")"
        case .or(let parts):
            return try "(" + parts.map { try condition($0, linkKeys, &arguments) }.joined(separator: " OR ") + ")"
        }
    }

    private static func condition(
        _ term: Filter.Term, _ linkKeys: (String) throws -> [String], _ arguments: inout StatementArguments
    ) rethrows -> String {
        switch term {
        case .hasLink:
            // The links table's key starts with the row (`itemLink` in "v17 links").
            return "EXISTS (SELECT 1 FROM itemLink WHERE itemLink.rowNumber = item.rowNumber)"
        case .hasAttachment:
            // NULL for none ("v19 attachments"): an item's references, as their JSON text.
            return "item.attachments IS NOT NULL"
        case .links(let target):
            let keys = try linkKeys(target)
            guard !keys.isEmpty else { return "0" }
            arguments += StatementArguments(keys)
            // Read through the key index, whatever the size of the store.
            return "item.rowNumber IN (SELECT rowNumber FROM itemLink WHERE key IN ("
                + keys.map { _ in "?" }.joined(separator: ", ") + "))"
        case .word(let word):
            // A word is letters and digits only (`SearchQuery.words`), so quoting it is enough.
            arguments += ["\"\(word)\"*"]
            return "item.rowNumber IN (SELECT rowid FROM itemSearch WHERE itemSearch MATCH ?)"
        case .tag(let tag, let present):
            // SPEC: tags match without regard to case (ASCII letters, as `Tags.same`).
            arguments += [tag]
            return (present ? "" : "NOT ")
                + "EXISTS (SELECT 1 FROM json_each(item.tags) WHERE json_each.value = ? COLLATE NOCASE)"
        case .kind(let kind):
            arguments += [kind.rawValue]
            return "item.kind = ?"
        case .status(let status):
            // `StatusFilter.admits`: notes have no status.
            switch status {
            case .any: return "1"
            case .open: return "(item.done = 0 AND item.kind = 'task')"
            case .done: return "item.done = 1"
            }
        case .priority(let priority):
            arguments += [priority.rawValue]
            return "item.priority = ?"
        case .project(let name):
            // The column's collation is NOCASE (`String.asciiCaseFolded`); the projects under `name` are
            // the names from `name.` up to `name/` ('/' follows '.'), a range the index serves.
            guard let name else { return "item.project IS NULL" }
            arguments += [name, name + ".", name + "/"]
            return "(item.project = ? OR (item.project >= ? AND item.project < ?))"
        case .due(let range): return dated("item.due", range, &arguments)
        case .wait(let range): return dated("item.wait", range, &arguments)
        case .scheduled(let range): return dated("item.scheduled", range, &arguments)
        case .waiting(let today):
            // `Item.isWaiting`; the partial index `item_by_wait` holds exactly these rows' days.
            arguments += [today.description]
            return "(item.wait > ? AND item.deleted = 0 AND item.done = 0 AND item.kind = 'task')"
        case .created(let range):
            return timeBounded("item.createdAt", range, &arguments)
        case .updated(let range):
            return timeBounded("item.updatedAt", range, &arguments)
        }
    }

    /// A date column within `range`, or null for no range (`due:none`); `YYYY-MM-DD` sorts as
    /// the days do.
    private static func dated(_ column: String, _ range: Filter.DayRange?, _ arguments: inout StatementArguments)
        -> String
    {
        guard let range else { return "\(column) IS NULL" }
        return bounded(column, from: range.first?.description, through: range.last?.description, &arguments)
    }

    /// `column` not null and within the inclusive bounds given.
    private static func bounded(
        _ column: String, from first: String?, through last: String?, _ arguments: inout StatementArguments
    ) -> String {
        var parts = ["\(column) IS NOT NULL"]
        if let first {
            parts.append("\(column) >= ?")
            arguments += [first]
        }
        if let last {
            parts.append("\(column) <= ?")
            arguments += [last]
        }
        return "(" + parts.joined(separator: " AND ") + ")"
    }

    /// A store time within `range`: the store writes every time as `StoreTime.string`, whose
    /// text sorts as the instants do.
    private static func timeBounded(_ column: String, _ range: Filter.TimeRange, _ arguments: inout StatementArguments)
        -> String
    {
        var parts: [String] = []
        if let start = range.start {
            parts.append("\(column) >= ?")
            arguments += [StoreTime.string(from: start)]
        }
        if let end = range.end {
            parts.append("\(column) < ?")
            arguments += [StoreTime.string(from: end)]
        }
        return parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")"
    }
}
