import Foundation
import GRDB
import QuireCore

/// One version of an item from its history.
public struct ItemVersion: Sendable, Hashable {
    /// Order of recording on this device (larger is newer).
    public var seq: Int64
    public var recordedAt: Date
    public var origin: ChangeOrigin
    /// The outbox op that carried this version, when there was one.
    public var opID: String?
    /// The item as it was (its `syncState` is not recorded and reads as `synced`).
    public var item: Item
    /// A local version written by `u`, taking an earlier action back.
    public var isUndo: Bool = false
}

/// One page of a listing and the total behind it, read in one transaction so they agree.
public struct ItemPage: Sendable, Hashable {
    public var items: [Item]
    public var total: Int

    public init(items: [Item], total: Int) {
        self.items = items
        self.total = total
    }
}

// MARK: - Reads

extension AppDatabase {
    /// The item with this full id, deleted or not; nil when there is none.
    public func item(_ id: String) throws(StoreError) -> Item? {
        try read { db in try ItemRow.fetch(id: id, in: db) }
    }

    /// The full id of the item whose short id is `prefix` (see `ShortID`), or else of the one
    /// item whose full id starts with `prefix` (SPEC: at least 4 characters, as git does).
    /// Case does not matter, and the hyphens may be left out.
    ///
    /// Throws `.invalidPrefix` for text that cannot be an id prefix, `.unknownPrefix` when no
    /// item matches and `.ambiguousPrefix` (with a few candidates) when several do. Deleted
    /// items are found too, so that they can be restored.
    public func resolve(_ prefix: String) throws(StoreError) -> String {
        try read { db in try Self.resolvedID(prefix, in: db) }
    }

    /// `resolve` inside a read or a write.
    static func resolvedID(_ prefix: String, in db: Database) throws -> String {
        guard let normalized = Self.normalizedPrefix(prefix) else { throw StoreError.invalidPrefix(prefix) }
        let matches: [String]
        if let id = try Self.itemID(shortID: prefix, in: db) {
            matches = [id]
        } else {
            matches = try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM item WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"),
                arguments: [normalized, normalized + "~", Self.ambiguityListLength])
        }
        switch matches.count {
        case 0: throw StoreError.unknownPrefix(prefix)
        case 1: return matches[0]
        default:
            if matches.contains(normalized) { return normalized }
            throw StoreError.ambiguousPrefix(prefix, candidates: matches)
        }
    }

    /// Lowercases a prefix and puts back the hyphens of the canonical UUID form; nil when the
    /// text is too short or holds anything but hex digits and hyphens in their places.
    static func normalizedPrefix(_ text: String) -> String? {
        let lower = text.lowercased()
        let hex = lower.filter { $0 != "-" }
        guard hex.count >= minimumPrefixLength, hex.count <= 32,
            hex.allSatisfy({ $0.isHexDigit && $0.isASCII })
        else { return nil }
        var result = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { result.append("-") }
            result.append(character)
        }
        // Hyphens the person typed must sit where the canonical form has them.
        let typed = lower.hasSuffix("-") ? String(lower.dropLast()) : lower
        if lower.contains("-") && typed != result { return nil }
        return result
    }

    /// Items matching `filter`, pinned first then newest first, one page at a time.
    public func items(matching filter: ItemFilter = .live, limit: Int? = nil, offset: Int = 0) throws(StoreError)
        -> [Item]
    {
        try read { db in try Self.fetchItems(filter, limit: limit, offset: offset, in: db) }
    }

    /// How many items match `filter`.
    public func count(matching filter: ItemFilter = .live) throws(StoreError) -> Int {
        try read { db in try Self.countItems(filter, in: db) }
    }

    /// Where an item stands in the list of `filter` (pinned first, then newest first, or the
    /// filter's `order`): how many matching items come before it. Nil when the item is not in
    /// that list. In the list's own order it is counted on the list's index, so it costs about
    /// as much as counting the rows above the item.
    public func position(of id: String, matching filter: ItemFilter = .live) throws(StoreError) -> Int? {
        try read { db in
            let (condition, arguments) = try filter.forWaiting(in: db).whereClause(in: db)
            var lookup: StatementArguments = [id]
            lookup += arguments
            if let order = filter.order {
                guard
                    try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT 1 FROM item WHERE item.id = ? AND \(condition)"),
                        arguments: lookup) != nil
                else { return nil }
                var before: StatementArguments = [id]
                before += arguments
                return try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM (SELECT * FROM item WHERE id = ?) AS target, item
                            WHERE \(condition) AND \(order.comesBeforeTarget)
                            """),
                    arguments: before) ?? 0
            }
            guard
                let pinned = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT item.pinned FROM item WHERE item.id = ? AND \(condition)"),
                    arguments: lookup)
            else { return nil }
            var before: StatementArguments = arguments
            before += [pinned, pinned, id]
            return try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM item
                        WHERE \(condition) AND (item.pinned > ? OR (item.pinned = ? AND item.id > ?))
                        """),
                arguments: before) ?? 0
        }
    }

    /// A page and its total from one snapshot.
    public func page(matching filter: ItemFilter = .live, limit: Int, offset: Int = 0) throws(StoreError) -> ItemPage {
        try read { db in
            // Settled once: the page and its count would each probe for waiting tasks.
            let filter = try filter.forWaiting(in: db)
            return ItemPage(
                items: try Self.fetchItems(filter, limit: limit, offset: offset, in: db),
                total: try Self.countItems(filter, in: db))
        }
    }

    /// Calls `body` with each item matching `filter` in list order, decoding one row at a
    /// time: the way to write ten thousand items out without holding them all.
    public func forEachItem(matching filter: ItemFilter = .live, _ body: (Item) throws -> Void) throws(StoreError) {
        try read { db in try Self.forEachItem(matching: filter, in: db, body) }
    }

    static func forEachItem(matching filter: ItemFilter, in db: Database, _ body: (Item) throws -> Void) throws {
        let (sql, arguments) = try listing(filter.forWaiting(in: db), readsEveryMatch: true, in: db)
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try cursor.next() { try body(try ItemRow.decode(row)) }
    }

    /// Full-text search over title, body and tags: every word of `text` must start a word of
    /// the item. Best matches first, ranked over every match: items whose title holds every
    /// word, then those whose title and tags hold them, then the rest; the most recently added
    /// first within each (`SearchQuery.tiers` says why this order).
    ///
    /// Each tier is read in the index's row order and reading stops as soon as `limit` items
    /// have passed the filter, so the cost follows the matches listed, not the matches there are.
    public func search(_ text: String, matching filter: ItemFilter = .live, limit: Int? = nil) throws(StoreError)
        -> [Item]
    {
        var found: [Item] = []
        try search(text, matching: filter, limit: limit, withShortIDs: false) { row in
            found.append(try ItemRow.decode(row))
        }
        return found
    }

    /// `search`, with each match's short id read in the same statement: a listing of a thousand
    /// matches scattered over a million items would otherwise run a thousand more lookups.
    public func searchWithShortIDs(
        _ text: String, matching filter: ItemFilter = .live, limit: Int? = nil
    ) throws(StoreError) -> (items: [Item], shortIDs: [String: String]) {
        var items: [Item] = []
        var shortIDs: [String: String] = [:]
        try search(text, matching: filter, limit: limit, withShortIDs: true) { row in
            let item = try ItemRow.decode(row)
            items.append(item)
            shortIDs[item.id] = row[ItemRow.columns.count] ?? String(item.id.prefix(8))
        }
        return (items, shortIDs)
    }

    /// Calls `body` with the row of each match, best first (see `search`); with `withShortIDs`
    /// each row ends with the item's short id (NULL while it has none).
    private func search(
        _ text: String, matching filter: ItemFilter, limit: Int?, withShortIDs: Bool, _ body: (Row) throws -> Void
    ) throws(StoreError) {
        guard let tiers = SearchQuery.tiers(text) else { return }
        try read { db in
            let (condition, arguments) = try filter.forWaiting(in: db).whereClause(in: db)
            var count = 0
            for tier in tiers {
                let wanted = limit.map { $0 - count } ?? -1
                if wanted == 0 { break }
                let sql = Self.searchTierSQL(in: tier.index, where: condition, withShortIDs: withShortIDs)
                var all: StatementArguments = [tier.match]
                all += arguments
                all += [wanted]
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: all)
                while let row = try rows.next() {
                    try body(row)
                    count += 1
                }
            }
        }
    }

    /// One tier of a search: its matches that pass `condition`, newest row first.
    ///
    /// `CROSS JOIN` keeps the index outside, walked from its newest row; `ORDER BY rowid DESC`
    /// is then the index's own order, so no sort waits for every match and LIMIT ends the walk.
    static func searchTierSQL(in index: SearchQuery.Index, where condition: String, withShortIDs: Bool = false)
        -> String
    {
        let table = index.rawValue
        let shortID = withShortIDs ? ", (SELECT code FROM itemCode WHERE itemCode.rowNumber = item.rowNumber)" : ""
        return """
            SELECT \(ItemRow.select(from: "item"))\(shortID) FROM \(table)
            CROSS JOIN item ON item.rowNumber = \(table).rowid
            WHERE \(table) MATCH ? AND \(condition)
            ORDER BY \(table).rowid DESC
            LIMIT ?
            """
    }

    /// How many items a search matches in all (`search` lists only the best of them).
    ///
    /// `CROSS JOIN` keeps the full-text index on the outside: left to itself the planner starts
    /// from `item` and runs the text query once per item, which took minutes at 100k items.
    public func countMatches(_ text: String, matching filter: ItemFilter = .live) throws(StoreError) -> Int {
        guard let match = SearchQuery.match(text) else { return 0 }
        return try read { db in
            let (condition, arguments) = try filter.forWaiting(in: db).whereClause(in: db)
            let sql = """
                SELECT count(*) FROM itemSearch CROSS JOIN item ON item.rowNumber = itemSearch.rowid
                WHERE itemSearch MATCH ? AND \(condition)
                """
            var all: StatementArguments = [match]
            all += arguments
            return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: all) ?? 0
        }
    }

    /// The tags of live items that start with `prefix`, the most used first (for completion).
    public func tags(startingWith prefix: String, limit: Int = 20) throws(StoreError) -> [String] {
        try read { db in
            // `substr` compares the exact characters; LIKE would fold ASCII case and read `_`/`%`.
            let sql = """
                SELECT json_each.value AS tag FROM item, json_each(item.tags)
                WHERE item.deleted = 0 AND substr(json_each.value, 1, length(?)) = ?
                GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ?
                """
            return try String.fetchAll(db.cachedStatement(sql: sql), arguments: [prefix, prefix, limit])
        }
    }

    /// Titles of live items that start with `prefix` without regard to case, as links match
    /// them (`WikiLink.key`), in the title index's order (by their folded text) and each once:
    /// what `[[` completes to in the editor. A range of the index, read as far as `limit`.
    public func titles(startingWith prefix: String, limit: Int = 20) throws(StoreError) -> [String] {
        try read { db in
            let key = WikiLink.key(prefix)
            let sql = """
                SELECT item.title FROM itemTitle JOIN item ON item.rowNumber = itemTitle.rowNumber
                WHERE itemTitle.key >= ? AND itemTitle.key < ? AND substr(itemTitle.key, 1, length(?)) = ?
                  AND item.deleted = 0 AND lower(item.title) = itemTitle.key
                ORDER BY itemTitle.key, item.id DESC LIMIT ?
                """
            let titles = try String.fetchAll(
                db.cachedStatement(sql: sql), arguments: [key, key + "\u{10FFFF}", key, key, limit * 2])
            var seen = Set<String>()
            return Array(titles.filter { seen.insert($0).inserted }.prefix(limit))
        }
    }

    /// Every tag of a live item with how many live items carry it, sorted by name; tags that
    /// differ only in the case of ASCII letters are one tag (SPEC: Filters).
    public func tagCounts() throws(StoreError) -> [(name: String, count: Int)] {
        try read { db in
            let sql = """
                SELECT json_each.value, count(*) FROM item, json_each(item.tags)
                WHERE item.deleted = 0 GROUP BY json_each.value COLLATE NOCASE ORDER BY json_each.value COLLATE NOCASE
                """
            return try Row.fetchAll(db.cachedStatement(sql: sql)).map { row in (row[0] as String, row[1] as Int) }
        }
    }

    /// Every project of a live item with how many live items it holds, its sub-projects'
    /// included (`home` counts `home.garden`'s), sorted by name; names that differ only in the
    /// case of ASCII letters are one project (the spelling used most).
    public func projectCounts() throws(StoreError) -> [(name: String, count: Int)] {
        let direct = try read { db in
            // The column's NOCASE collation groups `Home` with `home`.
            let sql = """
                SELECT project, count(*) FROM item WHERE deleted = 0 AND project IS NOT NULL GROUP BY project
                """
            return try Row.fetchAll(db.cachedStatement(sql: sql)).map { row in (row[0] as String, row[1] as Int) }
        }
        var counts: [[UInt8]: (name: String, count: Int)] = [:]
        for (project, count) in direct {
            for name in Projects.lineage(of: project) {
                counts[name.asciiCaseFolded, default: (name, 0)].count += count
            }
        }
        return counts.values.sorted { $0.name.asciiCaseFolded.lexicographicallyPrecedes($1.name.asciiCaseFolded) }
    }

    /// Every version of the item this device has seen or made, newest first.
    public func history(of id: String) throws(StoreError) -> [ItemVersion] {
        try read { db in
            let sql = """
                SELECT seq, recordedAt, origin, opId, \(ItemRow.versionColumns), undoes IS NOT NULL
                FROM itemVersion WHERE itemId = ? ORDER BY seq DESC
                """
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).map { row in
                let recorded: String = row[1]
                let origin: String = row[2]
                return ItemVersion(
                    seq: row[0], recordedAt: StoreTime.date(from: recorded) ?? Date(timeIntervalSince1970: 0),
                    origin: ChangeOrigin(rawValue: origin) ?? .local, opID: row[3],
                    item: try ItemRow.decode(row, at: 4),
                    isUndo: row[25])
            }
        }
    }

    // MARK: - Shared queries

    static func fetchItems(_ filter: ItemFilter, limit: Int?, offset: Int, in db: Database) throws -> [Item] {
        let filter = try filter.forWaiting(in: db)
        // OFFSET walks every row before the page: the last page of a million items took 89 ms.
        // A page in the second half is read from the other end instead, in reverse order, when
        // the total is known for nothing (the tallies).
        if let limit, offset > reverseReadThreshold, filter.isTallied, filter.order == nil {
            let rowsFromPage = try countItems(filter, in: db) - offset
            guard rowsFromPage > 0 else { return [] }
            if offset > rowsFromPage {
                let (condition, arguments) = try filter.whereClause(in: db)
                let take = min(limit, rowsFromPage)
                var all = arguments
                all += [take, rowsFromPage - take]
                let sql = """
                    SELECT \(ItemRow.select(from: "item")) FROM item WHERE \(condition)
                    ORDER BY item.pinned ASC, item.id ASC LIMIT ? OFFSET ?
                    """
                return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: all).map { try ItemRow.decode($0) }
                    .reversed()
            }
        }
        var (sql, arguments) = try listing(filter, readsEveryMatch: limit == nil, in: db)
        arguments += [limit ?? -1, offset]
        return try Row.fetchAll(db.cachedStatement(sql: sql + " LIMIT ? OFFSET ?"), arguments: arguments).map {
            try ItemRow.decode($0)
        }
    }

    /// The statement that lists what `filter` admits in its order, from where
    /// `ItemFilter.start(readsEveryMatch:)` says, with no limit; `filter` is settled for waiting.
    static func listing(_ filter: ItemFilter, readsEveryMatch: Bool, in db: Database) throws
        -> (sql: String, arguments: StatementArguments)
    {
        let start = filter.start(readsEveryMatch: readsEveryMatch)
        let (condition, arguments) = try filter.whereClause(in: db, start: start)
        let sql = """
            SELECT \(ItemRow.select(from: "item")) FROM \(ItemFilter.source(start))
            WHERE \(condition) ORDER BY \(filter.orderSQL)
            """
        return (sql, arguments)
    }

    /// Below this offset a page is always read from the top: skipping a few thousand rows costs
    /// less than the count that tells which end is nearer.
    static let reverseReadThreshold = 5_000

    /// How many items `filter` admits. A filter on deleted, done and kind alone sums the running
    /// tallies (migration "v9 tallies"), which costs the same at any size; a tag or needs-review
    /// filter counts rows. The tally table has the columns the WHERE clause names, so it stands
    /// in for `item` under the same clause.
    static func countItems(_ filter: ItemFilter, in db: Database) throws -> Int {
        let filter = try filter.forWaiting(in: db)
        let start = filter.start(readsEveryMatch: true)
        let (condition, arguments) = try filter.whereClause(in: db, start: start)
        let sql =
            filter.isTallied
            ? "SELECT coalesce(sum(item.n), 0) FROM itemTally AS item WHERE \(condition)"
            : "SELECT count(*) FROM \(ItemFilter.source(start)) WHERE \(condition)"
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
    }
}
