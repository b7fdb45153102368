import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// The server's results for the ops this device sent.
extension SyncReconciler {
    /// Applies the server's result for an op this device sent.
    public mutating func apply(_ result: OpResult, to local: inout LocalItem) {
        guard let index = local.ops.firstIndex(where: { $0.op.id == result.op }) else {
            // Already replaced (a conflict earlier in the batch merged this item's ops away).
            return
        }
        let sent = local.ops[index].op
        switch result.status {
        case .applied:
            local.ops.remove(at: index)
            summary.applied += 1
            if let current = result.current {
                // Applied on top of changes this device has not seen (or its own earlier op of
                // this batch): the server's whole item. While a later op of the item in this
                // batch is still to be answered, the server may have applied that one on top:
                // merging now would queue this device's in-flight changes again, against a
                // revision already gone. The last answer for the item settles it.
                acknowledgeIfMade(sent, result: result, current: current, of: local)
                unsettled[local.id] = newer(current, than: unsettled[local.id])
            } else if var item = local.item, let rev = result.rev, rev == sent.baseRev + 1, rev > item.rev {
                // Exactly this device's version: take the server's revision, version and times,
                // so that every device holds the same bytes.
                item.rev = rev
                if let version = result.version {
                    item.serverVersion = version
                    acknowledged.append(
                        AcknowledgedVersion(
                            itemID: local.id, opID: sent.id, rev: rev, version: version,
                            createdAt: result.createdAt, updatedAt: result.updatedAt, doneAt: result.doneAt))
                }
                // The creation time does not move with later changes: taken even while they wait.
                if let createdAt = result.createdAt { item.createdAt = createdAt }
                if local.activeOps.isEmpty {
                    if let updatedAt = result.updatedAt { item.updatedAt = updatedAt }
                    if item.done, let doneAt = result.doneAt { item.doneAt = doneAt }
                }
                local.item = item
                // Changes queued while this one waited for its answer were made on top of it:
                // they now rest on the version it made (a later push sends them so; ops of this
                // push the server has rested on it already).
                for index in local.ops.indices
                where local.ops[index].state == .pending && local.ops[index].op.baseRev == sent.baseRev
                    && local.ops[index].op.baseVersion == sent.baseVersion
                    && (local.ops[index].op.kind != .create || sent.kind == .delete)
                {
                    local.ops[index].op.baseRev = rev
                    local.ops[index].op.baseVersion = result.version ?? local.ops[index].op.baseVersion
                }
            }
        case .skipped:
            local.ops[index].state = .pending
        case .rejected:
            let reason = result.reason ?? "the server refused the change"
            local.ops[index].state = .rejected
            local.ops[index].lastError = reason
            summary.deadLetters += 1
            log(.deadLetter, "\(sent.kind.rawValue) set aside: \(reason)", item: local.id, op: sent.id)
        case .conflict:
            guard let current = result.current else {
                local.ops[index].state = .pending
                break
            }
            unsettled[local.id] = nil
            merge(remote: current, into: &local, force: true)
        }
        if let current = unsettled[local.id], !local.ops.contains(where: { $0.state == .inFlight }) {
            unsettled[local.id] = nil
            merge(remote: current, into: &local, force: true)
        }
        settleBadge(&local)
    }

    /// Acknowledges the version `sent` made on this device when the server's copy in its answer
    /// is exactly that version (the op applied on top of this device's earlier op of the batch,
    /// or a replay answered before a later op moved the item on): its history version gets the
    /// server's stamp, so a later merge finds it as a version both hold. Unstamped, a restore
    /// that lost the newer versions leaves only an older one, and the author reviews its own
    /// change against another device's re-send of this very version.
    private mutating func acknowledgeIfMade(_ sent: Op, result: OpResult, current: ChangeItem, of local: LocalItem) {
        guard let version = result.version, current.version == version, current.rev == result.rev,
            let made = histories[local.id]?.first(where: { $0.opID == sent.id })?.item,
            made.hasSameContent(as: remoteItem(current, local: made))
        else { return }
        acknowledged.append(
            AcknowledgedVersion(
                itemID: local.id, opID: sent.id, rev: current.rev, version: version,
                createdAt: result.createdAt, updatedAt: result.updatedAt, doneAt: result.doneAt))
    }

    /// The later of two server copies of one item, by revision (both are answers of one push).
    private func newer(_ change: ChangeItem, than other: ChangeItem?) -> ChangeItem {
        guard let other else { return change }
        return other.rev > change.rev ? other : change
    }
}
