import Foundation
import QuireCore
import QuireStore
import QuireSync
import QuireUI

/// Where the resolve screen reads an item's three versions and writes the person's resolution.
///
/// Kept apart from `ItemSource` so that sources without sync bookkeeping (in-memory ones in
/// unit tests) need not pretend to have it; the runtime says so when its source cannot resolve.
public protocol ReviewSource: Sendable {
    /// Base, local and remote of an item that needs review; nil when it needs none.
    func reviewVersions(of id: String) throws -> ReviewVersions?
    /// Writes a resolution: the ledger's step, then an ordinary edit of the plan's fields.
    /// Returns the item as stored, or nil when it no longer needed review.
    func resolve(_ plan: ResolvePlan) throws -> Item?
}

extension StoreItemSource: ReviewSource {
    public func reviewVersions(of id: String) throws -> ReviewVersions? {
        guard let record = try store.conflicts().first(where: { $0.itemID == id }) else { return nil }
        // The row is what the person sees now; it can have been edited since the merge, and
        // the ledger resolves against it, so the screen shows the same.
        let current = try store.item(id)
        let local =
            current.map { current in
                var local = record.local
                for field in record.fields { local.set(field, from: current) }
                return local
            } ?? record.local
        return ReviewVersions(itemID: id, base: record.base, local: local, remote: record.remote)
    }

    public func resolve(_ plan: ResolvePlan) throws -> Item? {
        // The store's own clock and ids: a resolution's op sorts after every write before it.
        let clock = store.environment
        let ledger = SyncLedger(storage: store.syncStorage(), now: clock.now, newID: clock.newID)
        // One side (or the merged body), then the fields chosen one by one: one transaction.
        switch plan.step {
        case .keep(let resolution):
            return try ledger.resolve(plan.itemID, keeping: resolution, setting: plan.fields)
        case .body(let body):
            return try ledger.resolve(plan.itemID, keeping: .local, body: body, setting: plan.fields)
        }
    }
}

extension Item {
    /// Copies the value of one editable field from another version.
    fileprivate mutating func set(_ field: Field, from other: Item) {
        try? set(field, to: other.value(of: field), now: other.doneAt ?? other.updatedAt)
    }
}

/// Running the resolve screen's effects on the UI queue.
extension AppRuntime {
    private var reviews: (any ReviewSource)? { environment.reviews }

    func loadReview(_ id: String) -> Message {
        guard let reviews else {
            return .notice(.info("Resolve it with quire resolve \(id.prefix(8))"))
        }
        do {
            return .reviewLoaded(id: id, try reviews.reviewVersions(of: id))
        } catch {
            return .notice(.error("Cannot read the store: \(error)"))
        }
    }

    func resolve(_ plan: ResolvePlan) -> [Message] {
        guard let reviews else {
            return [.resolveFinished(id: plan.itemID, error: "this store cannot resolve here")]
        }
        do {
            guard try reviews.resolve(plan) != nil else {
                return [.resolveFinished(id: plan.itemID, error: "it no longer needs review")]
            }
            // Our own write: the poll need not reload for it.
            lastVersion = try? environment.items.dataVersion()
            tellSyncTheStoreChanged()
            return [.resolveFinished(id: plan.itemID, error: nil), currentSync()]
        } catch {
            return [.resolveFinished(id: plan.itemID, error: String(describing: error))]
        }
    }
}
