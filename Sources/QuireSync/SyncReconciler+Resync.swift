import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// The snapshot a resync reads: after a restore, what the server lost comes back from the
/// devices that hold it.
extension SyncReconciler {
    /// Reconciles an item against the server's snapshot. `remote` is nil when the snapshot does
    /// not have the item; `lineage` is what the server's database kept of its earlier epochs.
    ///
    /// Whether the server holds this device's version is decided by `ServerVersion`, never by
    /// revision numbers, which a restored database counts again. When it holds it, the server's
    /// copy is newer or equal and the usual rules apply. When it does not (a restore lost it),
    /// what the device has is merged three ways with what the server has, over the newest
    /// version both descend from (`mergeBase`), and sent as one change: a device never
    /// overwrites a version it has not seen, and one that only holds what the server lost (it
    /// changed nothing) sends the lost changes without a conflict.
    public mutating func reconcile(snapshot remote: ChangeItem?, lineage: ServerVersion?, to local: inout LocalItem) {
        defer { settleBadge(&local) }
        // The snapshot holds every item the server has: a version that did not open here is no
        // longer the server's (a version that still does not open is recorded instead).
        local.unreadable = nil
        guard let current = local.item else {
            if let remote { merge(remote: remote, into: &local, force: true) }
            return
        }
        let lineage = lineage?.stamps ?? [:]
        // A copy from before versions existed (or never acknowledged) is taken as held.
        let held =
            current.serverVersion.map { (remote?.version ?? ServerVersion()).holds($0, lineage: lineage) } ?? true
        if held || local.conflict != nil {
            guard let remote else {
                reconcileMissing(current, local: &local)
                return
            }
            merge(remote: remote, into: &local, force: true, lineage: lineage)
            return
        }
        let lost = current.serverVersion!
        let undone = SyncReconciler.base(of: current, undoing: local.activeOps, now: now)
        guard let remote else {
            let candidates = (undone.map { [$0] } ?? []) + knownServerVersions(of: local.id)
            if let ancestor = SyncReconciler.newest(of: candidates, heldBy: ServerVersion(), lineage: lineage) {
                // The server deleted the item after the newest version both hold.
                var tombstone = ancestor
                tombstone.deleted = true
                tombstone.serverVersion = nil
                resend(current, over: tombstone, base: ancestor, lost: lost, local: &local)
            } else {
                recreate(current, lost: lost, local: &local)
            }
            return
        }
        let server = remoteItem(remote, local: current)
        let base = mergeBase(of: local, restingOn: undone, remote: server, lineage: lineage)
        resend(current, over: server, base: base, lost: lost, local: &local)
    }

    /// A device copy whose item is gone from the server although the server holds the
    /// version the copy rests on: deleted there (its tombstone may be purged already). The
    /// tombstone is the last version this device knows the server had, never what only this
    /// device holds: the server's copy the review shows, or the version the unsent changes
    /// rest on. Built from the device's copy, it would claim the server held (and deleted)
    /// this device's unsent lines, and a merge over it would take them out.
    private mutating func reconcileMissing(_ current: Item, local: inout LocalItem) {
        if current.rev == 0 { return }  // never reached the server; its create op will
        if current.deleted {
            // Gone on both sides; a delete still queued has nothing left to delete.
            let unsent = Set(local.activeOps.filter { $0.op.kind == .delete }.map(\.op.id))
            local.ops.removeAll { unsent.contains($0.op.id) }
            return
        }
        var tombstone =
            local.conflict?.remote ?? SyncReconciler.base(of: current, undoing: local.activeOps, now: now) ?? current
        tombstone.deleted = true
        merge(remote: ChangeItem(tombstone), into: &local, force: true)
    }

    /// Sends again an item the server lost entirely, as a create carrying every field and the
    /// version it brings back.
    private mutating func recreate(_ current: Item, lost: ServerVersion, local: inout LocalItem) {
        var item = current
        item.rev = 0
        item.serverVersion = nil
        // The create's `from` values are the lost version as this device had it (the server
        // reads only `to`): if another device brought the item back first, the answer is merged
        // over the newest version both hold, and a device that changed nothing takes what the
        // server has.
        let lostCopy = SyncReconciler.base(of: current, undoing: local.activeOps, now: now) ?? current
        local.ops.removeAll { $0.isActive }
        var fields = item.creationFields
        for field in Field.allCases { fields[field]?.from = lostCopy.value(of: field) }
        let op = OutboxOp(
            op: Op(id: newID(now), item: local.id, kind: .create, baseRev: 0, fields: fields, basis: lost),
            createdAt: now)
        local.ops.append(op)
        if item.deleted {
            // A tombstone goes back as one too (created, then deleted), so it can still be restored.
            local.ops.append(
                OutboxOp(op: Op(id: newID(now), item: local.id, kind: .delete, baseRev: 1), createdAt: now))
        }
        local.item = item
        // The version the re-send makes gets its server version when acknowledged, like any
        // version this device sends: it is what later merges find as a version both hold.
        history.append(HistoryEntry(item: item, origin: .merge, opID: local.ops.last?.op.id))
        summary.resent += 1
        log(.resync, "the server had lost this item: sending it again", item: local.id, op: op.op.id)
    }

    /// Merges this device's copy, which holds versions the server lost, with the server's, over
    /// `base` (the newest version both hold; nil when none is known), and queues the result
    /// against the server's version, naming the lost version it brings back.
    private mutating func resend(
        _ current: Item, over remote: Item, base: Item?, lost: ServerVersion, local: inout LocalItem
    ) {
        if !local.activeOps.isEmpty, resendApart(current, over: remote, base: base, lost: lost, local: &local) {
            return
        }
        let merge = ItemMerge(base: base, local: current, remote: remote)
        if merge.needsReview {
            settle(merge, remote: remote, local: &local, wasInConflict: false)
            return
        }
        local.ops.removeAll { $0.isActive }
        var merged = merge.item
        merged.rev = remote.rev
        merged.serverVersion = remote.serverVersion
        let ops = resendOps(from: remote, to: merged, lost: lost)
        if ops.isEmpty && remote.serverVersion != nil {
            merged = SyncReconciler.serverCopy(remote, for: merged)
        } else {
            remember(remote)
        }
        local.ops += ops
        show(merged, over: current, resending: ops, local: &local)
    }

    /// The ops that bring the server's version to `target`, each naming the lost version.
    /// A lost version whose content the server's copy has already (changed since the backup
    /// and back, a delete and its revival, say) is named all the same, by an update that changes
    /// nothing: the server's copy then holds it, and a device holding an older version the
    /// restore lost too (the delete) finds it held rather than sending it again over the newer.
    private func resendOps(from remote: Item, to target: Item, lost: ServerVersion) -> [OutboxOp] {
        var ops = makeOps(from: remote, to: target)
        if ops.isEmpty, remote.serverVersion != nil, !remote.deleted {
            ops = [
                OutboxOp(
                    op: Op(
                        id: newID(now), item: target.id, kind: .update, baseRev: remote.rev, fields: [:],
                        baseVersion: remote.serverVersion),
                    createdAt: now)
            ]
        }
        for index in ops.indices { ops[index].op.basis = lost }
        return ops
    }

    /// Makes `merged` the item (a version of the history when it changed) and logs the re-send.
    private mutating func show(_ merged: Item, over current: Item, resending ops: [OutboxOp], local: inout LocalItem) {
        // A re-sent version is a version of the history even when the item looks the same: its
        // entry carries the op, so the server's acknowledgment stamps it with its version.
        if merged != current || !ops.isEmpty {
            history.append(HistoryEntry(item: merged, origin: .merge, opID: ops.last?.op.id))
        }
        local.item = merged
        if let op = ops.first {
            summary.resent += 1
            log(
                .resync, "the server had lost changes this device holds: sending them again", item: local.id,
                op: op.op.id)
        }
    }

    /// Re-sends what the server lost and this device's unsent changes apart: first the lost
    /// version merged with the server's (it names the lost version as its basis and holds
    /// nothing else, so when the server turns out to hold that version already, brought back by
    /// another device, it is simply dropped), then the unsent changes on top of it. False,
    /// changing nothing, when either step needs a person (the single merge then decides).
    private mutating func resendApart(
        _ current: Item, over remote: Item, base: Item?, lost: ServerVersion, local: inout LocalItem
    ) -> Bool {
        guard let lostCopy = SyncReconciler.base(of: current, undoing: local.activeOps, now: now) else { return false }
        let restoring = ItemMerge(base: base, local: lostCopy, remote: remote)
        guard !restoring.needsReview else { return false }
        var restored = restoring.item
        restored.rev = remote.rev
        restored.serverVersion = remote.serverVersion
        let unsent = ItemMerge(base: lostCopy, local: current, remote: restored)
        guard !unsent.needsReview else { return false }
        var merged = unsent.item
        merged.rev = remote.rev
        merged.serverVersion = remote.serverVersion
        local.ops.removeAll { $0.isActive }
        let resent = resendOps(from: remote, to: restored, lost: lost)
        remember(remote)
        local.ops += resent + makeOps(from: restored, to: merged)
        show(merged, over: current, resending: resent, local: &local)
        return true
    }
}
