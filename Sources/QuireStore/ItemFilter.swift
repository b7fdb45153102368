import GRDB
import QuireCore

/// Which items a listing shows; the same value drives `items(matching:)`, `count(matching:)`
/// and `search(_:matching:)`, so a screen's rows and its total always agree.
public struct ItemFilter: Sendable, Hashable {
    /// Only notes or only tasks; nil for both.
    public var kind: ItemKind?
    /// Open or done (`StatusFilter` says how notes count).
    public var status: StatusFilter
    /// Only items carrying this tag.
    public var tag: String?
    /// Only items whose sync state is `needs-review`.
    public var needsReview: Bool
    /// Tombstones too (they never show otherwise).
    public var includeDeleted: Bool
    /// Tombstones only: the trash.
    public var onlyDeleted: Bool
    /// What a person typed as a filter (`quire list +home due.before:eow`), on top of the rest.
    public var expression: Filter
    /// The order listings read in; nil for the list's own (pinned first, then newest first).
    /// Counts ignore it.
    public var order: ItemOrder?
    /// Hides open tasks waiting past this day (SPEC: `wait`), as default lists do; nil shows
    /// them. See `forWaiting(in:)` for what it costs.
    public var hidesWaitingAfter: Day?

    public init(
        kind: ItemKind? = nil, status: StatusFilter = .any, tag: String? = nil, needsReview: Bool = false,
        includeDeleted: Bool = false, onlyDeleted: Bool = false, expression: Filter = .all, order: ItemOrder? = nil,
        hidesWaitingAfter: Day? = nil
    ) {
        self.kind = kind
        self.status = status
        self.tag = tag
        self.needsReview = needsReview
        self.includeDeleted = includeDeleted
        self.onlyDeleted = onlyDeleted
        self.expression = expression
        self.order = order
        self.hidesWaitingAfter = hidesWaitingAfter
    }

    /// A default list's filter as of `today`: waiting tasks hidden, unless the expression asks
    /// about them (`status:waiting`, `wait.after:…`).
    public static func defaultList(
        kind: ItemKind? = nil, status: StatusFilter = .any, tag: String? = nil, needsReview: Bool = false,
        includeDeleted: Bool = false, expression: Filter = .all, today: Day
    ) -> ItemFilter {
        ItemFilter(
            kind: kind, status: status, tag: tag, needsReview: needsReview, includeDeleted: includeDeleted,
            expression: expression, hidesWaitingAfter: expression.mentionsWaiting ? nil : today)
    }

    /// This filter as it must run now: hiding waiting tasks when some wait past the day (one
    /// probe of the partial index `item_by_wait`), else without that test, so that a store
    /// with no waiting task keeps the counted fast path (`isTallied`) of every default list.
    func forWaiting(in db: Database) throws -> ItemFilter {
        guard let day = hidesWaitingAfter else { return self }
        // Named: left to itself the planner walks `item_by_open_order`, every open task (75 ms
        // at 100k items when none waits), instead of the few rows of this index (2 ms).
        let sql = "SELECT 1 FROM item INDEXED BY item_by_wait WHERE wait > ? AND deleted = 0 AND done = 0 LIMIT 1"
        if try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: [day.description]) != nil { return self }
        var settled = self
        settled.hidesWaitingAfter = nil
        return settled
    }

    /// True when every row the filter admits is a live open task, which the partial index
    /// `item_open_tasks` (v20) holds: a read may then name that index.
    var admitsOnlyOpenTasks: Bool { status == .open && !includeDeleted && !onlyDeleted }

    /// The ORDER BY terms over alias `item`.
    var orderSQL: String { order?.sql ?? "item.pinned DESC, item.id DESC" }

    /// Every live item.
    public static let live = ItemFilter()
    /// Open tasks.
    public static let open = ItemFilter(status: .open)

    /// True when the filter looks only at deleted, done and kind: the running tallies
    /// (migration "v9 tallies") count what it admits without reading the items.
    var isTallied: Bool { tag == nil && !needsReview && expression.isEmpty && hidesWaitingAfter == nil }

    /// The WHERE clause (over alias `item`) and its arguments.
    ///
    /// Written so that SQLite walks `item_by_order` or `item_by_open_order` in index order for
    /// the common filters, which makes "pinned first, newest first" with LIMIT cheap.
    /// A `links:` term looks its item up in `db`, and throws `StoreError` when there is none.
    /// `start` is where the read starts (`start(readsEveryMatch:)`): a read that starts from a
    /// term's index lists the rows of the tags every match carries.
    func whereClause(in db: Database, start: Start = .order) throws -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if onlyDeleted {
            conditions.append("item.deleted = 1")
        } else if !includeDeleted {
            conditions.append("item.deleted = 0")
        }
        // `StatusFilter.admits` in SQL: notes have no status.
        switch status {
        case .any: break
        case .open: conditions.append("item.done = 0 AND item.kind = 'task'")
        case .done: conditions.append("item.done = 1")
        }
        if let kind {
            conditions.append("item.kind = ?")
            arguments += [kind.rawValue]
        }
        if let tag {
            // SPEC: tags match without regard to case (ASCII letters, as SQLite's NOCASE folds).
            conditions.append(FilterSQL.tagProbe)
            arguments += [tag]
        }
        if needsReview { conditions.append("item.syncState = 'needs-review'") }
        if let day = hidesWaitingAfter {
            // `Item.isWaiting` negated (a null `wait` makes the comparison null, so it is named).
            conditions.append("(item.wait IS NULL OR item.wait <= ? OR item.done = 1 OR item.kind <> 'task')")
            arguments += [day.description]
        }
        if !expression.isEmpty {
            let (sql, more) = try FilterSQL.condition(expression, tagsAsRows: start != .order) { target in
                try AppDatabase.linkKeys(reachingTyped: target, in: db)
            }
            conditions.append(sql)
            arguments += more
        }
        return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), arguments)
    }
}
