import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// The person's decisions: an item that needs review settled, a dead letter retried or dropped.
extension SyncReconciler {
    /// Settles an item that needs review as the person chose; the result becomes a new local
    /// change against the server's version. False when the item has no conflict.
    @discardableResult
    public mutating func resolve(_ local: inout LocalItem, keeping choice: ItemMerge.Resolution) -> Bool {
        resolve(&local) { $0.resolved(choice) }
    }

    /// Settles an item with one side (or a body the person wrote), then the fields the person
    /// chose one by one: the whole resolution as one change, one op and one history version.
    public mutating func resolve(
        _ local: inout LocalItem, keeping choice: ItemMerge.Resolution, body: String? = nil,
        setting fields: [Field: FieldValue]
    ) throws(ValidationError) -> Bool {
        // Validate first: a refused value must leave the conflict as it was.
        guard let conflict = local.conflict, let current = local.item else { return false }
        let merge = ItemMerge(base: conflict.base, local: current, remote: conflict.remote)
        let chosen = try (body.map { merge.resolved(body: $0) } ?? merge.resolved(choice)).applying(fields, now: now)
        return resolve(&local) { _ in chosen }
    }

    /// Settles an item that needs review with a body the person wrote.
    @discardableResult
    public mutating func resolve(_ local: inout LocalItem, body: String) -> Bool {
        resolve(&local) { $0.resolved(body: body) }
    }

    private mutating func resolve(_ local: inout LocalItem, _ choose: (ItemMerge) -> Item) -> Bool {
        guard let conflict = local.conflict, let current = local.item else { return false }
        // Merge again with the item as it is now: the person may have edited it meanwhile.
        let merge = ItemMerge(base: conflict.base, local: current, remote: conflict.remote)
        var resolved = choose(merge)
        resolved.rev = conflict.remote.rev
        resolved.updatedAt = max(now, current.updatedAt)
        local.ops.removeAll { $0.isActive }
        local.conflict = nil
        let ops = makeOps(from: conflict.remote, to: resolved)
        local.ops += ops
        if ops.isEmpty && conflict.remote.serverVersion != nil {
            // The choice is what the server has: nothing to send, and the item is the server's
            // copy byte for byte (its times too), as on every other device.
            resolved = SyncReconciler.serverCopy(conflict.remote, for: resolved)
        }
        local.item = resolved
        settleBadge(&local)
        history.append(HistoryEntry(item: local.item!, origin: .resolve, opID: ops.last?.op.id))
        return true
    }

    // MARK: - Dead letters

    /// Sends a dead letter again as a new op (a replayed op id would get the same refusal).
    @discardableResult
    public mutating func retryDeadLetter(_ opID: String, in local: inout LocalItem) -> Bool {
        guard let index = local.ops.firstIndex(where: { $0.op.id == opID && $0.state == .rejected }) else {
            return false
        }
        var retried = local.ops.remove(at: index)
        retried.op.id = newID(now)
        retried.state = .pending
        retried.attempts = 0
        retried.lastError = nil
        retried.seq = 0
        retried.createdAt = now
        local.ops.append(retried)
        settleBadge(&local)
        return true
    }

    /// Drops a dead letter; its values stay in the item's history. When nothing else waits
    /// for the item, it goes back to the version the server has (the one the refused change was
    /// made on), so that nothing the server does not hold is shown as synced; an item the server
    /// never had stays, shown as on this device only.
    @discardableResult
    public mutating func discardDeadLetter(_ opID: String, in local: inout LocalItem) -> Bool {
        guard let index = local.ops.firstIndex(where: { $0.op.id == opID && $0.state == .rejected }) else {
            return false
        }
        let discarded = local.ops.remove(at: index)
        if local.ops.isEmpty, local.conflict == nil, let current = local.item, current.rev > 0,
            var server = SyncReconciler.base(of: current, undoing: [discarded], now: now), server != current
        {
            server.syncState = .synced
            local.item = server
            history.append(HistoryEntry(item: server, origin: .remote))
            log(.deadLetter, "discarded: back to the server's version", item: local.id, op: discarded.op.id)
        }
        settleBadge(&local)
        return true
    }
}
