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
        // The ledger resolves what `merge(showing:)` gives: for a sync record, the row (what
        // the person sees now, perhaps edited since the merge) is the local side; for an edit
        // record, the version that was saved. The screen shows the same.
        let local = try store.item(id).map { record.shownLocal(row: $0) } ?? record.local
        return ReviewVersions(itemID: id, base: record.base, local: local, remote: record.remote)
    }

    public func resolve(_ plan: ResolvePlan) throws -> Item? {
        // The store's own clock and ids: a resolution's op sorts after every write before it.
        let clock = store.environment
        let ledger = SyncLedger(storage: store.syncStorage(), now: clock.now, newID: clock.newID)
        // One side (or the merged body), then the fields chosen one by one: one transaction,
        // from the versions the screen showed (what moved since merges in).
        let screen = plan.seen.map {
            SyncReconciler.ResolutionScreen(local: $0.local, remote: $0.remote, made: plan.expected)
        }
        switch plan.step {
        case .keep(let resolution):
            return try ledger.resolve(plan.itemID, keeping: resolution, setting: plan.fields, screen: screen)
        case .body(let body):
            return try ledger.resolve(plan.itemID, keeping: .local, body: body, setting: plan.fields, screen: screen)
        }
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
            return [.resolveFinished(id: plan.itemID, error: nil), ownWriteNoted()]
        } catch {
            return [.resolveFinished(id: plan.itemID, error: String(describing: error))]
        }
    }
}
