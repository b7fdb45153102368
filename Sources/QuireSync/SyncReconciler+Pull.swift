import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// Pulled changes, and the merge with a server version that push answers and the snapshot
/// share with them.
extension SyncReconciler {
    /// Applies a version pulled from the changes feed.
    public mutating func apply(pulled remote: ChangeItem, to local: inout LocalItem) {
        merge(remote: remote, into: &local, force: false)
        settleBadge(&local)
    }

    /// Takes or merges a server version. `force` merges even when the version is not newer
    /// than the local revision (a conflict answer, a snapshot after a server restore);
    /// `lineage` is what a snapshot says the server's database kept of earlier epochs.
    mutating func merge(
        remote change: ChangeItem, into local: inout LocalItem, force: Bool, lineage: [String: Int64] = [:]
    ) {
        // A readable version as new as the one that did not open replaces it: the mark goes.
        if let seen = local.unreadable, change.rev >= seen.rev { local.unreadable = nil }
        guard let current = local.item else {
            // Deleted for good here: its tombstone (the echo of this device's own delete, or
            // another device's) stays away. A live copy is an item again.
            if local.purged && change.deleted { return }
            // A tombstone without content for an item this device never had: nothing to keep.
            if change.isContentless { return }
            var item = remoteItem(change, local: nil)
            item.syncState = .synced
            local.item = item
            history.append(HistoryEntry(item: item, origin: .remote))
            summary.pulled += 1
            return
        }
        if !force && !SyncReconciler.isNewer(change, than: current) { return }
        // A tombstone without content deletes the version this device's changes rest on, not
        // its changes: they meet the delete as an edit meets one, for review.
        let kept = change.isContentless ? SyncReconciler.base(of: current, undoing: local.activeOps, now: now) : current
        let remote = remoteItem(change, local: kept ?? current)

        if let conflict = local.conflict {
            // A server copy that lacks the version the record holds as the server's is older
            // than it (a restore lost that version, which its author sends again): the record
            // waits for a copy that holds it. Merged, the older copy would make the record's
            // server side vanish from this device's copy, while its history still holds it as a
            // version both share, and a later merge over it would take its changes out.
            if let recorded = conflict.remote.serverVersion, let version = remote.serverVersion,
                !version.holds(recorded, lineage: lineage)
            {
                return
            }
            // Still waiting for the person: the newer server version replaces the old one in the
            // record, and the merge is tried again (it may have become clean).
            let merge = ItemMerge(base: conflict.base, local: current, remote: remote)
            settle(merge, remote: remote, local: &local, wasInConflict: true)
            return
        }
        dropOps(alreadyHeldBy: remote, in: &local)
        let active = local.activeOps
        if active.isEmpty {
            takeServerCopy(remote, current: current, local: &local)
            return
        }
        let undone = SyncReconciler.base(of: current, undoing: active, now: now)
        let base = mergeBase(of: local, restingOn: undone, remote: remote)
        settle(
            ItemMerge(base: base, local: current, remote: remote), remote: remote, local: &local, wasInConflict: false)
    }

    /// True when a pulled version is newer than the version this device's copy rests on: by
    /// `ServerVersion` when both have one (the copy does not hold it already), else (a server
    /// too old to stamp versions) by revision. Revisions cannot tell after a restore, which
    /// counts them again: a device that settled a review on a version the restore lost rests
    /// on it, and the version another device's re-send of it makes may carry the very same
    /// revision.
    static func isNewer(_ change: ChangeItem, than current: Item) -> Bool {
        guard let mine = current.serverVersion, let theirs = change.version else { return change.rev > current.rev }
        return !mine.holds(theirs)
    }

    /// Replaces the item with the server's version (nothing of this device's waits for it).
    mutating func takeServerCopy(_ remote: Item, current: Item, local: inout LocalItem) {
        var unchanged = current
        unchanged.syncState = remote.syncState
        if unchanged == remote { return }
        var item = remote
        item.syncState = .synced
        local.item = item
        history.append(HistoryEntry(item: item, origin: .remote))
        summary.pulled += 1
    }

    /// Writes the outcome of a merge: a clean one as new ops, a conflicting one as a record
    /// (or, on a device that changed nothing since the base, as the server's copy).
    mutating func settle(_ merge: ItemMerge, remote: Item, local: inout LocalItem, wasInConflict: Bool) {
        let replaced = local.activeOps
        if merge.needsReview && !wasInConflict && !madeChanges(local, since: merge.base) {
            // What differs is not this device's to decide: its copy only holds versions it
            // pulled, which the server's copy went on without (their author re-sends them).
            local.ops.removeAll { $0.isActive }
            if let current = local.item { takeServerCopy(remote, current: current, local: &local) }
            log(
                .resync, "took the server's version: the versions it lacks were made elsewhere", item: local.id,
                op: nil)
            return
        }
        let unsent = Set(replaced.map(\.op.id))
        local.ops.removeAll { unsent.contains($0.op.id) }
        if merge.needsReview {
            var shown = merge.item
            shown.rev = remote.rev
            shown.syncState = .needsReview
            // The other side's version joins this device's history (so undoing the resolution,
            // or restoring a version, can bring either side back), followed by what the item
            // shows, which stays the newest entry: the history's newest is the item as it is.
            let newRemote =
                local.conflict.map { $0.remote.serverVersion != remote.serverVersion || $0.remote.rev != remote.rev }
                ?? true
            if newRemote { remember(remote) }
            local.conflict = ConflictRecord(
                itemID: local.id, base: merge.base,
                local: wasInConflict ? (local.conflict?.local ?? merge.local) : merge.local,
                remote: remote, fields: merge.conflicts, detectedAt: local.conflict?.detectedAt ?? now)
            if shown != local.item || newRemote {
                local.item = shown
                history.append(HistoryEntry(item: shown, origin: .merge))
            }
            if !wasInConflict {
                summary.needsReview += 1
                let what =
                    merge.deleteConflict.map {
                        $0 == .deletedRemotely ? "edited here, deleted elsewhere" : "deleted here, edited elsewhere"
                    }
                    ?? "both changed " + merge.conflicts.map(\.rawValue).joined(separator: ", ")
                log(.conflict, "needs review: \(what)", item: local.id, op: nil)
            }
            return
        }
        var merged = merge.item
        merged.rev = remote.rev
        local.conflict = nil
        // Ops that only re-sent versions the server lost are replaced by ops that name them too
        // (once this device's own changes join them, the ops are its own: `madeChanges`).
        let bases = replaced.compactMap(\.op.basis)
        let basis = bases.count == replaced.count ? bases.reduce(nil) { $0?.joined(with: $1) ?? $1 } : nil
        var ops = makeOps(from: remote, to: merged)
        for index in ops.indices { ops[index].op.basis = basis }
        if ops.isEmpty {
            merged = SyncReconciler.serverCopy(remote, for: merged)
        } else {
            remember(remote)
        }
        local.ops += ops
        // The server's copy held nothing this device lacked (its own earlier ops of the push):
        // the unsent changes now rest on the newer revision, and there is nothing to report.
        let rebasedOnly = !wasInConflict && !ops.isEmpty && (local.item.map { $0.hasSameFields(as: merged) } ?? false)
        local.item = merged
        history.append(HistoryEntry(item: merged, origin: .merge, opID: ops.last?.op.id))
        if rebasedOnly { return }
        summary.merged += 1
        let pushed = ops.isEmpty ? "" : " and queued as " + ops.map(SyncReconciler.describe).joined(separator: " then ")
        log(
            .merged,
            (wasInConflict ? "merged cleanly with a newer server version" : "merged with the server's changes")
                + pushed,
            item: local.id, op: ops.last?.op.id)
    }

    /// "update of body, title", "delete of the item".
    static func describe(_ op: OutboxOp) -> String {
        "\(op.op.kind.rawValue) of \(op.op.fields?.keys.sorted().map(\.rawValue).joined(separator: ", ") ?? "the item")"
    }
}
