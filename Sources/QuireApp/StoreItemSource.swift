import Foundation
import QuireCore
import QuireStore
import QuireSync
import QuireUI

/// The live `ItemSource`: Quire's SQLite store.
///
/// Listings page through the store with LIMIT/OFFSET and a count, so drawing one screen of a
/// 100,000-item list reads a few dozen rows. Searches show the best `searchLimit` matches,
/// kept for the store's data version so that paging through them reads nothing again.
public struct StoreItemSource: ItemSource {
    public let store: AppDatabase
    /// Counting a long list costs more than reading a page of it, and paging asks for the same
    /// count again and again: it is kept until the store's data version moves.
    private let totals = LastAnswer<Int>()
    /// The matches of the last search, for paging and for finding an item among them.
    private let matches = LastAnswer<[Item]>()
    /// A live search shows at most this many matches, best first (ranked over all of them).
    public static let searchLimit = 500
    /// How far around its old place `index(of:)` looks for a moved item before giving up.
    static let anchorWindow = 300

    /// The person's day: tasks waiting past it are hidden from the list.
    let today: @Sendable () -> Day
    /// Where attaching reads the account's keys, so a file attached here is keyed at once, as
    /// `quire attach` keys it; nil (no sync) attaches files as they are.
    public var settings: SyncSettings?

    public init(
        store: AppDatabase, settings: SyncSettings? = nil,
        today: @escaping @Sendable () -> Day = { AppEnvironment.localDay(of: Date()) }
    ) {
        self.store = store
        self.settings = settings
        self.today = today
    }

    func itemFilter(_ query: ListQuery) -> ItemFilter {
        // The trash shows what was deleted, waiting or not.
        var filter = ItemFilter.defaultList(
            kind: query.kind, status: query.status, tag: query.tag, needsReview: query.needsReviewOnly,
            expression: query.filter, today: today())
        filter.onlyDeleted = query.trash
        if query.trash { filter.hidesWaitingAfter = nil }
        filter.expression = Self.searchText(query) == nil ? query.filter : query.filter.withoutRankingWords
        filter.order = query.order
        return filter
    }

    /// The words a search ranks by: those every match holds. A filter without them (`+home`,
    /// `a or b`) lists its matches in list order.
    private static func searchText(_ query: ListQuery) -> String? {
        let words = query.filter.rankingWords
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    public func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow {
        try page(query, offset: offset, limit: limit, totalMayBeStale: false)
    }

    public func page(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws -> ItemWindow {
        var window = try unlabelledPage(query, offset: offset, limit: limit, totalMayBeStale: totalMayBeStale)
        window.shortIDs = try store.shortIDs(for: window.items.map(\.id))
        return window
    }

    private func unlabelledPage(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws
        -> ItemWindow
    {
        let filter = itemFilter(query)
        let version = try store.dataVersion()
        if let text = Self.searchText(query) {
            let best = try bestMatches(text, filter: filter, query: query, version: version)
            // Only the best `searchLimit` are listed, and counting every match of a one-letter
            // prefix costs more than a frame: the status bar says there are more than that.
            let capped = best.count >= Self.searchLimit
            return ItemWindow(
                items: Array(best.dropFirst(offset).prefix(limit)), total: best.count, moreMatch: capped)
        }
        if let total = totals.value(for: query, version: totalMayBeStale ? nil : version) {
            return ItemWindow(
                items: try store.items(matching: filter, limit: limit, offset: max(0, offset)), total: total)
        }
        let page = try store.page(matching: filter, limit: limit, offset: max(0, offset))
        // The version read before the page: a write in between only makes the next call count again.
        totals.remember(page.total, for: query, version: version)
        return ItemWindow(items: page.items, total: page.total)
    }

    public func index(of id: String, in query: ListQuery, near: Int) throws -> Int? {
        let filter = itemFilter(query)
        if let text = Self.searchText(query) {
            return try bestMatches(text, filter: filter, query: query, version: try store.dataVersion())
                .firstIndex { $0.id == id }
        }
        // The list order is pinned first, then newest first; an item moves only when others
        // arrive, leave or get pinned, so it is almost always near where it was.
        let start = max(0, near - Self.anchorWindow)
        let window = try store.items(matching: filter, limit: 2 * Self.anchorWindow, offset: start)
        if let found = window.firstIndex(where: { $0.id == id }) { return start + found }
        // Moved farther (a sync brought a page of 500 newer items since the last look): count.
        return try store.position(of: id, matching: filter)
    }

    /// The best `searchLimit` matches of a search, read once per data version of the store.
    private func bestMatches(_ text: String, filter: ItemFilter, query: ListQuery, version: Int) throws -> [Item] {
        if let known = matches.value(for: query, version: version) { return known }
        let found = try store.search(text, matching: filter, limit: Self.searchLimit)
        // The version read before the search: a write in between only makes the next call search again.
        matches.remember(found, for: query, version: version)
        return found
    }

    public func item(_ id: String) throws -> Item? {
        try store.item(id)
    }

    public func create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values) throws -> Item {
        try store.create(
            NewItem(
                kind: kind, title: title, body: body, tags: details.tags, due: details.due, priority: details.priority,
                project: details.project, recur: details.recur, wait: details.wait, scheduled: details.scheduled))
    }

    public func update(_ id: String, fields: [Field: FieldValue]) throws -> Item {
        try store.update(id, fields: fields)
    }

    public func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue]) throws
        -> SavedWrite
    {
        try store.save(id, from: before, to: after)
    }

    public func delete(_ id: String) throws {
        try store.delete([id])
    }

    public func restore(_ id: String) throws {
        try store.restore([id])
    }

    public func purge(_ id: String) throws {
        _ = try store.purge([id])
    }

    public func links(of id: String) throws -> [LinkEntry] {
        try store.links(of: id).map { LinkEntry(direction: .to, text: $0.link.text, target: $0.item) }
            + store.backlinks(of: id).map { LinkEntry(direction: .from, text: $0.title, target: $0) }
    }

    /// Conflicts are few and have their own table; the item table's sync-state filter would
    /// scan every live item.
    public func nextNeedingReview(after id: String?) throws -> String? {
        let ids = try store.conflicts().map(\.itemID)
        guard !ids.isEmpty else { return nil }
        guard let id, let index = ids.firstIndex(of: id) else { return ids[0] }
        return ids[(index + 1) % ids.count]
    }

    public func history(of id: String) throws -> [HistoryVersion] {
        try store.history(of: id).map { version in
            HistoryVersion(
                seq: version.seq, recordedAt: version.recordedAt,
                origin: version.isUndo ? "undo" : version.origin.rawValue, item: version.item)
        }
    }

    public func undoLastAction() throws -> UndoneAction? {
        try store.undoLastAction()
    }

    public func countMatches(_ query: ListQuery) throws -> Int {
        guard let text = Self.searchText(query) else { return try page(query, offset: 0, limit: 0).total }
        return try store.countMatches(text, matching: itemFilter(query))
    }

    public func tags(startingWith prefix: String) throws -> [String] {
        try store.tags(startingWith: prefix)
    }

    public func titles(startingWith prefix: String) throws -> [String] {
        try store.titles(startingWith: prefix)
    }

    public func counts() throws -> StoreCounts {
        let outbox = try store.outboxCounts()
        return StoreCounts(
            pending: outbox.pending, inFlight: outbox.inFlight, rejected: outbox.rejected,
            needsReview: try store.conflicts().count)
    }

    public func dataVersion() throws -> Int {
        try store.dataVersion()
    }

    public func shownVersion() throws -> Int {
        try store.shownVersion()
    }
}

/// The last answer for one list query, valid for one data version of the store: a list's count
/// (`totals`) or a search's best matches (`matches`).
private final class LastAnswer<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var entry: (query: ListQuery, version: Int, value: Value)?

    /// The answer for `query` at `version`, or at any version when `version` is nil.
    func value(for query: ListQuery, version: Int?) -> Value? {
        lock.withLock {
            guard let entry, entry.query == query, version == nil || entry.version == version else { return nil }
            return entry.value
        }
    }

    func remember(_ value: Value, for query: ListQuery, version: Int) {
        lock.withLock { entry = (query, version, value) }
    }
}
