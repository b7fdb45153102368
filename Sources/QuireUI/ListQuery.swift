import QuireCore

/// What the list shows: filters plus the live search text. The store answers it page by page.
///
/// Without a search the order is fixed: pinned first, then newest first (ids are UUIDv7, so
/// id order is creation order). A search lists its best matches first (`AppDatabase.search`).
public struct ListQuery: Hashable, Sendable {
    /// nil for notes and tasks alike.
    public var kind: ItemKind?
    public var status: StatusFilter
    public var tag: String?
    /// What the person typed at `/`, as typed (the prompt and the bar show it).
    public var search: String
    /// `search` read as a filter (SPEC: Filters): free words search title, body and tags,
    /// and terms such as `+home` or `due.before:eow` narrow. Set with `search(_:calendar:)`.
    public var filter: Filter
    /// Only items whose sync state is needs-review.
    public var needsReviewOnly: Bool
    /// The trash: deleted items only (the other filters still apply).
    public var trash: Bool
    /// The order asked for with `O`; nil for the list's own. A search that ranks (free words)
    /// lists its best matches first whatever this says.
    public var order: ItemOrder?
    /// The saved view whose filter `search` holds (`v`), for the status bar; a search typed
    /// at `/` is no view's.
    public var viewName: String?

    public init(
        kind: ItemKind? = nil, status: StatusFilter = .any, tag: String? = nil, search: String = "",
        filter: Filter = .all, needsReviewOnly: Bool = false, trash: Bool = false, order: ItemOrder? = nil
    ) {
        self.kind = kind
        self.status = status
        self.tag = tag
        self.search = search
        self.filter = filter
        self.needsReviewOnly = needsReviewOnly
        self.trash = trash
        self.order = order
    }

    /// True when nothing narrows the list.
    public var isUnfiltered: Bool {
        kind == nil && status == .any && tag == nil && filter.isEmpty && !needsReviewOnly && !trash && order == nil
    }

    /// Sets the search to `text`, read as a filter against `calendar`; a text that does not
    /// read leaves the query as it was and says why.
    public mutating func search(_ text: String, calendar: FilterCalendar) throws(Filter.Failure) {
        filter = try Filter.parse(text, calendar: calendar)
        search = text
        viewName = nil
    }

    /// Shows `view`: its filter as the search, read against `calendar` now.
    public mutating func show(_ view: SavedView, calendar: FilterCalendar) throws(Filter.Failure) {
        try search(view.filter, calendar: calendar)
        viewName = view.name
    }

    /// The query without a search.
    public var withoutSearch: ListQuery {
        var query = self
        query.search = ""
        query.filter = .all
        query.viewName = nil
        return query
    }

    /// The filters in words for the status bar, e.g. `tasks · open · #home · /milk`.
    public var summary: [String] {
        var parts: [String] = trash ? ["trash"] : []
        switch kind {
        case .note?: parts.append("notes")
        case .task?: parts.append("tasks")
        case nil: break
        }
        if status != .any { parts.append(status.rawValue) }
        if let tag { parts.append(DetailsLine.tagWord(tag)) }
        if needsReviewOnly { parts.append("needs review") }
        let trimmed = search.trimmingWhitespace()
        if let order, filter.rankingWords.isEmpty { parts.append(order.words) }
        if let viewName {
            parts.append("view " + viewName)
        } else if !trimmed.isEmpty {
            parts.append("/" + trimmed)
        }
        return parts
    }

    /// Whether an item belongs in this list, for stores that filter in memory.
    ///
    /// The search part is `Filter.admits`, the in-memory reading of what the store runs as SQL.
    /// Given `today`, a task waiting past it is hidden, as the store's default list hides it
    /// (`ItemFilter.defaultList`), unless the search asks about waiting or this is the trash.
    public func matches(_ item: Item, today: Day? = nil) -> Bool {
        if item.deleted != trash { return false }
        if let today, !trash, !filter.mentionsWaiting, item.isWaiting(after: today) { return false }
        if let kind, item.kind != kind { return false }
        if !status.admits(item) { return false }
        if let tag, !item.tags.contains(where: { Tags.same($0, tag) }) { return false }
        if needsReviewOnly && item.syncState != .needsReview { return false }
        return filter.admits(item)
    }

    /// The list order: the one asked for, else pinned first, then newest (largest id) first.
    public func precedes(_ a: Item, _ b: Item) -> Bool {
        if let order { return order.precedes(a, b) }
        if a.pinned != b.pinned { return a.pinned }
        return a.id > b.id
    }
}
