import Dispatch
import GRDB
import QuireCore

/// The tables a change observer can watch.
public enum StoreTable: String, Sendable, Hashable, CaseIterable {
    case items = "item"
    case history = "itemVersion"
    case outbox
    case syncMeta
    case conflicts = "conflict"
    case syncEvents = "syncEvent"
}

/// A running observation; it stops when `cancel()` is called or when this value goes away.
public final class StoreObservation: Sendable {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) { self.cancellable = cancellable }

    /// Stops the observation; no callback runs after this returns... except one already queued.
    public func cancel() { cancellable.cancel() }
}

// MARK: - Observation

/// Hooks that tell the UI and the sync worker that the store changed.
///
/// They see commits made through this `AppDatabase` only. Commits by other processes (the CLI
/// in another terminal, a second TUI) are noticed by polling `dataVersion()`.
extension AppDatabase {
    /// Calls `onChange` on `queue` after every committed transaction that touched one of
    /// `tables`. Cheap: no query runs; the callback reads what it needs.
    public func observeChanges(
        to tables: Set<StoreTable> = [.items], on queue: DispatchQueue, _ onChange: @escaping @Sendable () -> Void
    ) -> StoreObservation {
        let regions: [any DatabaseRegionConvertible] = tables.map { Table($0.rawValue) }
        let observation = DatabaseRegionObservation(tracking: regions)
        let cancellable = observation.start(
            in: writer,
            onError: { _ in },
            onChange: { _ in queue.async { onChange() } })
        return StoreObservation(cancellable)
    }

    /// Delivers a page of `filter` (and its total) on `queue` now and after every change that
    /// could alter it; consecutive equal pages are not delivered twice.
    public func observePage(
        matching filter: ItemFilter, limit: Int, offset: Int = 0, on queue: DispatchQueue,
        onError: @escaping @Sendable (StoreError) -> Void = { _ in },
        onChange: @escaping @Sendable (ItemPage) -> Void
    ) -> StoreObservation {
        let path = self.path
        let observation = ValueObservation.tracking { db in
            ItemPage(
                items: try AppDatabase.fetchItems(filter, limit: limit, offset: offset, in: db),
                total: try AppDatabase.countItems(filter, in: db))
        }.removeDuplicates()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue),
            onError: { error in onError(AppDatabase.unusable(path: path, error)) },
            onChange: onChange)
        return StoreObservation(cancellable)
    }
}
