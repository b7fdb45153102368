import QuireCore

/// The list as the screen knows it: a window of loaded rows inside a possibly huge list.
///
/// Only `items` (a few screens' worth) are in memory; `total` says how long the list is. The
/// selection is a list index, and `selectedID` remembers which item it is so that it can stay
/// on that item when rows move.
public struct ListState: Hashable, Sendable {
    public var query: ListQuery
    public var total: Int
    /// More items match than the `total` listed (a search lists only its best matches).
    public var moreMatch = false
    /// How many match in all, once counted (off the UI queue: it costs more than a frame).
    public var matchCount: MatchCount?
    /// The list index of `items[0]`.
    public var offset: Int
    public var items: [Item]
    /// The short id of each of `items`, as the store gave them (see `ShortID`).
    public var shortIDs: [String: String]
    public var selection: Int
    public var selectedID: String?
    /// The list index on the top row of the screen.
    public var top: Int
    /// False until the first page arrives, so the screen can say "loading" instead of "empty".
    public var loaded: Bool
    /// The query the loaded rows answer: it lags `query` while a new search's page is read off
    /// the UI queue (benchmarks time a search key to the frame where the two agree).
    public var rowsQuery: ListQuery?

    public init(query: ListQuery = ListQuery()) {
        self.query = query
        total = 0
        offset = 0
        items = []
        shortIDs = [:]
        selection = 0
        selectedID = nil
        top = 0
        loaded = false
    }

    /// The item at a list index, if it is loaded.
    public func item(at index: Int) -> Item? {
        let local = index - offset
        guard local >= 0, local < items.count else { return nil }
        return items[local]
    }

    /// The selected item, if the list is not empty and it is loaded.
    public var selectedItem: Item? { item(at: selection) }

    /// What the screens show for an item's id: its short id, or (before the store gave one)
    /// its first 8 characters.
    public func shownID(of item: Item) -> String {
        shortIDs[item.id] ?? String(item.id.prefix(8))
    }

    /// Whether list indices `range` are all loaded (or past the end of the list).
    public func covers(_ range: Range<Int>) -> Bool {
        let wanted = range.clamped(to: 0..<max(0, total))
        if wanted.isEmpty { return true }
        return wanted.lowerBound >= offset && wanted.upperBound <= offset + items.count
    }
}

/// How many items a search matched in all, and which search.
public struct MatchCount: Hashable, Sendable {
    public var query: ListQuery
    public var count: Int

    public init(query: ListQuery, count: Int) {
        self.query = query
        self.count = count
    }
}
