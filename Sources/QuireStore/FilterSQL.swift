import GRDB
import QuireCore

/// `Filter` as SQL over alias `item`: the store's reading of what `Filter.admits` says in
/// memory (the tests hold the two to each other on generated items and filters).
enum FilterSQL {
    /// The condition and its arguments; `1` for the empty filter.
    /// `linkKeys` gives, for the target of a `links:` term, the link keys that reach it (the
    /// store looks the item up: see `AppDatabase.linkKeys(reachingTyped:in:)`).
    /// `tagsAsRows` writes the `+tag` terms every match must pass as the list of their rows,
    /// listed once: a read can start from it (`ItemFilter.Start.tag`), and testing a row
    /// against it costs less than a probe of the tag index (at a million items, the 83k rows
    /// of `project:p due.before:eow` were tested for `+garden` in 40 ms, against 75 ms by
    /// probes). Else each row probes the index, which costs nothing up front: a read that
    /// stops after a page would otherwise list every row of a tag that most items carry first.
    static func condition(_ filter: Filter, tagsAsRows: Bool = false, linkKeys: (String) throws -> [String])
        rethrows -> (sql: String, arguments: StatementArguments)
    {
        var arguments = StatementArguments()
        let sql = try condition(filter, linkKeys, tagsAsRows: tagsAsRows, &arguments)
        return (sql, arguments)
    }

    /// The terms every match must pass: the filter's own, or its parts' when it is an `and`.
    static func requiredTerms(_ filter: Filter) -> [Filter.Term] {
        switch filter {
        case .all, .or: []
        case .term(let term): [term]
        case .and(let parts): parts.flatMap(requiredTerms)
        }
    }

    private static func condition(
        _ filter: Filter, _ linkKeys: (String) throws -> [String], tagsAsRows: Bool,
        _ arguments: inout StatementArguments
    ) rethrows -> String {
        switch filter {
        case .all: return "1"
        case .term(.tag(let tag, present: true)) where tagsAsRows:
            arguments += [tag]
            return "item.rowNumber IN (SELECT rowNumber FROM itemTag WHERE key = lower(?))"
        case .term(let term): return try condition(term, linkKeys, &arguments)
        case .and(let parts):
            // Still every match's terms: a tag here can stand for rows as well.
            return try "("
                + parts.map { try condition($0, linkKeys, tagsAsRows: tagsAsRows, &arguments) }
                .joined(separator: " AND ") + ")"
        case .or(let parts):
            return try "("
                + parts.map { try condition($0, linkKeys, tagsAsRows: false, &arguments) }
                .joined(separator: " OR ") + ")"
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
            // SPEC: tags match without regard to case; `itemTag` ("v21 filter indexes") holds
            // each tag folded by `lower` (ASCII letters, as `Tags.same`), so the probe is one
            // seek of its key.
            arguments += [tag]
            return (present ? "" : "NOT ") + tagProbe
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
            // the names from `name.` up to `name/` ('/' follows '.'). Written as the one range from
            // `name` to `name/`, which `item_by_project_and_due` serves, less the names in it that
            // only start alike (`name-x`: '-' comes before '.').
            guard let name else { return "item.project IS NULL" }
            arguments += [name, name + "/", name, name + "."]
            return "(item.project >= ? AND item.project < ? AND (item.project = ? OR item.project >= ?))"
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

    /// True when the row has the tag given as the argument.
    static let tagProbe =
        "EXISTS (SELECT 1 FROM itemTag WHERE itemTag.key = lower(?) AND itemTag.rowNumber = item.rowNumber)"
}
