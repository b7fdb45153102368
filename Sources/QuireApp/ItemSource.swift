import QuireCore
import QuireUI

/// What the app reads from and writes to the local store, in the app's own terms.
///
/// One protocol so the runtime does not care whether items live in SQLite (`StoreItemSource`,
/// the live one) or in memory (unit tests). Every method may be called from any queue.
public protocol ItemSource: Sendable {
    /// One page of the list: `limit` items from list index `offset`, and how many there are.
    func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow
    /// As `page(_:offset:limit:)`, but the total may be the one counted before the last few
    /// commits (`ListRequest.isRefresh` explains who counts again). Paging with a key must not
    /// wait for a recount of 100,000 items each time a sync commits a page.
    func page(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws -> ItemWindow
    /// Where an item is in the list now; `near` is where it was, a hint for a cheap search.
    /// Nil when the item is no longer in the list.
    func index(of id: String, in query: ListQuery, near: Int) throws -> Int?
    func item(_ id: String) throws -> Item?
    /// A new item; `details` are its tags, due date and priority (the editor's details line).
    func create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values) throws -> Item
    /// Sets fields as they are (a blind write: `x`, `p`).
    func update(_ id: String, fields: [Field: FieldValue]) throws -> Item
    /// Sets `after`, made from `before`, merged with what changed since (`AppDatabase.save`).
    func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue]) throws -> SavedWrite
    func delete(_ id: String) throws
    func restore(_ id: String) throws
    /// Deletes an item for good (`AppDatabase.purge`).
    func purge(_ id: String) throws
    /// The item's links in the order of its text, then the live items that link to it.
    func links(of id: String) throws -> [LinkEntry]
    /// Every version of an item this device has seen or made, newest first.
    func history(of id: String) throws -> [HistoryVersion]
    /// Takes back the newest local action not taken back yet (`AppDatabase.undoLastAction()`);
    /// nil when there is none.
    func undoLastAction() throws -> UndoneAction?
    /// The next item needing review after `id` in list order, wrapping around; nil when none.
    func nextNeedingReview(after id: String?) throws -> String?
    /// How many items a search query matches in all (its page lists only the best of them).
    func countMatches(_ query: ListQuery) throws -> Int
    /// Tags of live items starting with `prefix`, the most used first (the tag prompt's Tab).
    func tags(startingWith prefix: String) throws -> [String]
    /// Titles of live items starting with `prefix` without regard to case, by their folded
    /// text, each once (the editor's Tab after `[[`).
    func titles(startingWith prefix: String) throws -> [String]
    /// Counts for the status bar.
    func counts() throws -> StoreCounts
    /// A number that changes whenever anyone commits to the store (any process).
    func dataVersion() throws -> Int
    /// A number that changes with every commit that may change what a screen shows, and stays
    /// when a commit touched only sync's own records (its log, a file's transfer progress) or
    /// the editor's drafts.
    func shownVersion() throws -> Int
}

extension ItemSource {
    public func create(kind: ItemKind, title: String, body: String) throws -> Item {
        try create(kind: kind, title: title, body: body, details: DetailsLine.Values())
    }

    public func page(_ query: ListQuery, offset: Int, limit: Int, totalMayBeStale: Bool) throws -> ItemWindow {
        try page(query, offset: offset, limit: limit)
    }

    /// A source with no records of its own for sync: every commit may change a screen.
    public func shownVersion() throws -> Int { try dataVersion() }
}

/// A window of the list as the store answered.
public struct ItemWindow: Sendable, Hashable {
    public var items: [Item]
    public var total: Int
    /// The short id of each item in `items` (see `ShortID`), what the screens show.
    public var shortIDs: [String: String]
    /// More items match than the `total` listed (a search lists only its best matches).
    public var moreMatch: Bool

    public init(items: [Item], total: Int, shortIDs: [String: String] = [:], moreMatch: Bool = false) {
        self.items = items
        self.total = total
        self.shortIDs = shortIDs
        self.moreMatch = moreMatch
    }
}

/// What the status bar counts.
public struct StoreCounts: Sendable, Hashable {
    /// Outbox operations not yet confirmed by the server.
    public var pending: Int
    public var inFlight: Int
    /// Operations the server can never apply as they are (dead letters).
    public var rejected: Int
    public var needsReview: Int

    public init(pending: Int = 0, inFlight: Int = 0, rejected: Int = 0, needsReview: Int = 0) {
        self.pending = pending
        self.inFlight = inFlight
        self.rejected = rejected
        self.needsReview = needsReview
    }
}
