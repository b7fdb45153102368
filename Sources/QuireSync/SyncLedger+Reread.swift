import Foundation
import QuireProtocol
import QuireStore

/// Reading again the versions that did not open, once the device holds other keys (SPEC
/// "End-to-end encryption": an unlock, or a key learned from the key ring, opens what it can).
extension SyncLedger {
    /// The items whose version did not open and was never tried with the keys of fingerprint
    /// `keys`, in id order, at most `limit`.
    public func unreadableIDs(notTriedWith keys: String, limit: Int) throws -> [String] {
        try storage.read { try $0.unreadableIDs(notTriedWith: keys, limit: limit) }
    }

    /// Applies what a snapshot page read again of the items `covered` (the wanted ones in the
    /// id range it covers), in one transaction: a version that opens now is taken as a pulled
    /// change (its mark goes), one that still does not is recorded with its reason, and one the
    /// page does not hold keeps its mark; each is noted as tried with `keys`, so it is not read
    /// again until the keys change once more. Items of the page not covered are left alone: the
    /// feed brings their changes. Answers how many of `covered` are still unreadable.
    public func applyReread(
        _ page: SnapshotPage, covering covered: Set<String>, unreadable: [ItemUnreadable], triedKeys keys: String
    ) throws -> Int {
        guard !covered.isEmpty else { return 0 }
        return try storage.write(.replayable) { tx in
            let opened = page.items.filter { covered.contains($0.id) }
            let seen = versions(unreadable).filter { covered.contains($0.key) }
            var stillUnreadable = 0
            _ = try update(covered, in: tx, knowing: SyncLedger.mayMerge) { items, reconciler in
                for change in opened where items[change.id] != nil {
                    reconciler.apply(pulled: change, to: &items[change.id]!)
                }
                for (id, version) in seen where items[id] != nil {
                    reconciler.record(unreadable: version, in: &items[id]!)
                }
                for id in covered where items[id]?.unreadable != nil {
                    items[id]!.unreadable!.triedKeys = keys
                    stillUnreadable += 1
                }
            }
            return stillUnreadable
        }
    }
}
