import Foundation
import QuireCore
import QuireStore
import QuireUI

/// An `ItemSource` kept in an array: for unit tests of the update and the effect runner, and
/// for benchmarks that measure drawing without SQLite.
///
/// It follows the same rules as `StoreItemSource` (the contract tests run both): list order and
/// filters from `ListQuery`, ids and times from a `StoreEnvironment`, tombstones kept on delete,
/// every write leaves the item `pending`. What it leaves out is sync bookkeeping: there is no
/// outbox, so `counts()` counts pending items, and a search is a substring test rather than
/// the store's ranked full-text search.
///
/// Thread-safe: one lock guards the items, so it may be called from any queue.
public final class InMemoryItemSource: ItemSource, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item]
    private var version = 0
    /// Every version written through this source, oldest first: the history undo reads.
    private var versions: [RecordedVersion] = []
    private let environment: StoreEnvironment

    private struct RecordedVersion {
        var item: Item
        /// The index of the version whose action this one took back.
        var undoes: Int?
        var undone = false
        /// False for the version an item had before this source first changed it (as if
        /// imported): the base of the first action, and not an action itself.
        var isAction = true
    }

    /// - Parameters:
    ///   - items: what the source holds at first, in the order `all` returns them.
    ///   - environment: the clock and ids of new items and edits.
    public init(items: [Item] = [], environment: StoreEnvironment = .deterministic()) {
        stored = items
        self.environment = environment
    }

    /// Every item held, tombstones too, in the order they were added.
    public var all: [Item] {
        get { lock.withLock { stored } }
        set {
            lock.withLock {
                stored = newValue
                version += 1
            }
        }
    }

    private func listed(_ query: ListQuery) -> [Item] {
        let today = AppEnvironment.localDay(of: environment.now())
        return lock.withLock { stored }.filter { query.matches($0, today: today) }.sorted(by: query.precedes)
    }

    public func page(_ query: ListQuery, offset: Int, limit: Int) throws -> ItemWindow {
        let matching = listed(query)
        return ItemWindow(items: Array(matching.dropFirst(max(0, offset)).prefix(limit)), total: matching.count)
    }

    public func index(of id: String, in query: ListQuery, near: Int) throws -> Int? {
        listed(query).firstIndex { $0.id == id }
    }

    public func item(_ id: String) throws -> Item? {
        lock.withLock { stored.first { $0.id == id } }
    }

    public func create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values) throws -> Item {
        let title = try Validation.title(title)
        let body = try Validation.body(body)
        let now = StoreTime.truncated(environment.now())
        let id = environment.newID(now)
        let item = Item(
            id: id, kind: kind, title: title, body: body, tags: details.tags, due: details.due,
            priority: details.priority, project: details.project, recur: details.recur, wait: details.wait,
            scheduled: details.scheduled, createdAt: UUIDv7Generator.creationTime(ofID: id) ?? now, updatedAt: now,
            syncState: .pending)
        lock.withLock {
            stored.append(item)
            versions.append(RecordedVersion(item: item))
            version += 1
        }
        return item
    }

    public func update(_ id: String, fields: [Field: FieldValue]) throws -> Item {
        let now = StoreTime.truncated(environment.now())
        return try change(id) { item in item = try item.applying(fields, now: now) }
    }

    /// As `AppDatabase.save`, without a conflict record: a save that conflicts leaves both
    /// sides in the item, which then needs review.
    public func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue]) throws
        -> SavedWrite
    {
        let now = StoreTime.truncated(environment.now())
        var outcome = SavedWrite.Outcome.saved
        let item = try change(id) { item in
            switch try WriteMerge.settle(after, startedFrom: before, current: item, now: now) {
            case .write(let values):
                item = try item.applying(values, now: now)
            case .merged(let values):
                outcome = .merged
                item = try item.applying(values, now: now)
            case .conflict(let merge):
                outcome = .needsReview
                item = merge.resolved(.both)
                item.syncState = .needsReview
            }
        }
        return SavedWrite(item: item, outcome: outcome)
    }

    public func delete(_ id: String) throws {
        _ = try change(id) { $0.deleted = true }
    }

    public func restore(_ id: String) throws {
        _ = try change(id) { $0.deleted = false }
    }

    /// Links by full id or current title (newest first), as the store reads them, without the
    /// store's memory of former titles.
    public func links(of id: String) throws -> [LinkEntry] {
        let items = lock.withLock { stored }
        func target(_ link: WikiLink) -> Item? {
            items.filter { $0.id == link.key || WikiLink.key($0.title) == link.key }
                .max { ($0.deleted ? 0 : 1, $0.id) < ($1.deleted ? 0 : 1, $1.id) }
        }
        guard let item = items.first(where: { $0.id == id }) else { throw StoreError.notFound(id: id) }
        let links = WikiLink.links(in: item.body).map { LinkEntry(direction: .to, text: $0.text, target: target($0)) }
        let backlinks = items.filter { other in
            !other.deleted && WikiLink.links(in: other.body).contains { target($0)?.id == id }
        }
        return links
            + backlinks.sorted { $0.id > $1.id }.map { LinkEntry(direction: .from, text: $0.title, target: $0) }
    }

    /// The item goes, and its versions stop being actions to undo, as the store's purge takes
    /// the row and its history (versions stay in place: later ones name earlier ones by index).
    public func purge(_ id: String) throws {
        try lock.withLock {
            guard stored.contains(where: { $0.id == id }) else { throw StoreError.notFound(id: id) }
            stored.removeAll { $0.id == id }
            for index in versions.indices where versions[index].item.id == id {
                versions[index].isAction = false
                versions[index].undone = true
            }
            version += 1
        }
    }

    /// Items needing review in list order, as the store's conflict table lists them.
    public func nextNeedingReview(after id: String?) throws -> String? {
        let ids = listed(ListQuery(needsReviewOnly: true)).map(\.id)
        guard !ids.isEmpty else { return nil }
        guard let id, let index = ids.firstIndex(of: id) else { return ids[0] }
        return ids[(index + 1) % ids.count]
    }

    public func countMatches(_ query: ListQuery) throws -> Int {
        listed(query).count
    }

    public func tags(startingWith prefix: String) throws -> [String] {
        var uses: [String: Int] = [:]
        for item in all where !item.deleted {
            for tag in item.tags where tag.hasPrefix(prefix) { uses[tag, default: 0] += 1 }
        }
        return uses.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }

    public func titles(startingWith prefix: String) throws -> [String] {
        let key = WikiLink.key(prefix)
        var seen = Set<String>()
        return all.filter { !$0.deleted && WikiLink.key($0.title).hasPrefix(key) }
            .sorted { (WikiLink.key($0.title), $1.id) < (WikiLink.key($1.title), $0.id) }
            .map(\.title).filter { seen.insert($0).inserted }
    }

    /// The versions this source wrote (and the one an item had before its first change).
    public func history(of id: String) throws -> [HistoryVersion] {
        lock.withLock {
            versions.enumerated().filter { $0.element.item.id == id }.reversed().map { index, version in
                HistoryVersion(
                    seq: Int64(index), recordedAt: version.item.updatedAt,
                    origin: !version.isAction ? "remote" : version.undoes != nil ? "undo" : "local", item: version.item)
            }
        }
    }

    /// As `AppDatabase.undoLastAction()`, over the versions this source wrote.
    public func undoLastAction() throws -> UndoneAction? {
        let found: (index: Int, action: Item, before: Item?, current: Item)? = lock.withLock {
            guard let index = versions.lastIndex(where: { $0.isAction && $0.undoes == nil && !$0.undone }) else {
                return nil
            }
            versions[index].undone = true
            let action = versions[index].item
            let before = versions[..<index].last { $0.item.id == action.id }?.item
            guard let current = stored.first(where: { $0.id == action.id }) else { return nil }
            return (index, action, before, current)
        }
        guard let found else { return nil }
        let plan = UndoPlan.taking(back: found.action, before: found.before, current: found.current)
        var after = found.current
        switch plan {
        case .revert(let fields):
            let now = StoreTime.truncated(environment.now())
            after = try change(found.current.id, undoing: found.index) { item in
                item = try item.applying(fields, now: now)
            }
        case .undelete: after = try change(found.current.id, undoing: found.index) { $0.deleted = false }
        case .remove, .deleteAgain: after = try change(found.current.id, undoing: found.index) { $0.deleted = true }
        case .cannot: break
        }
        return UndoneAction(itemID: after.id, title: after.title, plan: plan)
    }

    public func counts() throws -> StoreCounts {
        let items = all
        func count(_ state: SyncState) -> Int { items.filter { $0.syncState == state }.count }
        return StoreCounts(
            pending: count(.pending), inFlight: count(.syncing), rejected: count(.error),
            needsReview: items.filter { $0.syncState == .needsReview && !$0.deleted }.count)
    }

    public func dataVersion() throws -> Int {
        lock.withLock { version }
    }

    /// Changes one item under the lock; a change that leaves it as it was writes nothing, as
    /// the store does.
    private func change(_ id: String, undoing: Int? = nil, _ body: (inout Item) throws -> Void) throws -> Item {
        try lock.withLock {
            guard let index = stored.firstIndex(where: { $0.id == id }) else { throw StoreError.notFound(id: id) }
            var item = stored[index]
            try body(&item)
            guard item != stored[index] else { return item }
            // An item in review stays in review until it is resolved, as in the store.
            if stored[index].syncState != .needsReview && item.syncState != .needsReview { item.syncState = .pending }
            if !versions.contains(where: { $0.item.id == id }) {
                versions.append(RecordedVersion(item: stored[index], isAction: false))
            }
            stored[index] = item
            versions.append(RecordedVersion(item: item, undoes: undoing))
            version += 1
            return item
        }
    }
}
