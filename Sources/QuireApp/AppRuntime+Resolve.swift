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
        let local = current.map { current in
            var local = record.local
            for field in record.fields { local.set(field, from: current) }
            return local
        } ?? record.local
        return ReviewVersions(itemID: id, base: record.base, local: local, remote: record.remote)
    }

    public func resolve(_ plan: ResolvePlan) throws -> Item? {
        let live = StoreEnvironment.live
        let ledger = SyncLedger(storage: store.syncStorage(), now: live.now, newID: live.newID)
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
    private var reviews: (any ReviewSource)? { environment.items as? any ReviewSource }

    func loadReview(_ id: String) -> Message {
        guard let reviews else {
            return .notice("Resolve it with quire resolve \(id.prefix(8))", isError: false)
        }
        do {
            return .reviewLoaded(id: id, try reviews.reviewVersions(of: id))
        } catch {
            return .notice("Cannot read the store: \(error)", isError: true)
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
