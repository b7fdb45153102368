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
    ///
    /// `screen` is what the person built it from: the versions shown and the item they made of
    /// them. If either version moved since (a sync, another process), what moved is carried
    /// onto that item (`WriteMerge.carry`), as for any write that starts from a version; where
    /// it clashes, nothing is written and the person is asked to look again.
    public mutating func resolve(
        _ local: inout LocalItem, keeping choice: ItemMerge.Resolution, body: String? = nil,
        setting fields: [Field: FieldValue], screen: ResolutionScreen? = nil
    ) throws -> Bool {
        // Validate first: a refused value must leave the conflict as it was.
        guard let conflict = local.conflict, let current = local.item else { return false }
        let merge = conflict.merge(showing: current)
        var chosen = try (body.map { merge.resolved(body: $0) } ?? merge.resolved(choice)).applying(fields, now: now)
        let shownLocal = conflict.shownLocal(row: current)
        if let screen,
            !screen.remote.hasSameContent(as: conflict.remote) || !screen.local.hasSameContent(as: shownLocal)
        {
            guard
                let carried = WriteMerge.carry(screen.made, madeFrom: screen.remote, onto: conflict.remote)
                    .flatMap({ WriteMerge.carry($0, madeFrom: screen.local, onto: shownLocal) })
            else { throw ResolutionScreen.ChangedMeanwhile() }
            chosen = carried
        }
        return resolve(&local) { _ in chosen }
    }

    /// What a resolution was built from on the resolve screen, and what the person made of it.
    public struct ResolutionScreen: Sendable {
        public var local: Item
        public var remote: Item
        public var made: Item

        public init(local: Item, remote: Item, made: Item) {
            self.local = local
            self.remote = remote
            self.made = made
        }

        /// The item moved since the screen showed it, in the very places the person chose.
        public struct ChangedMeanwhile: Error, CustomStringConvertible {
            public var description: String {
                "it changed meanwhile where you chose: look again (your choices are still on the screen)"
            }
        }
    }

    /// Settles an item that needs review with a body the person wrote.
    @discardableResult
    public mutating func resolve(_ local: inout LocalItem, body: String) -> Bool {
        resolve(&local) { $0.resolved(body: body) }
    }

    private mutating func resolve(_ local: inout LocalItem, _ choose: (ItemMerge) -> Item) -> Bool {
        guard let conflict = local.conflict, let current = local.item else { return false }
        // Merge again with the item as it is now: the person may have edited it meanwhile.
        var resolved = choose(conflict.merge(showing: current))
        // What the resolution is a change of. A sync record's row rests on the server's version
        // with no op carrying it (ops made since are in the row, so they go); an edit record's
        // row is queued like any change (it holds both sides), so the choice comes after the ops
        // that carry it and none of theirs is dropped.
        let against = conflict.origin == .edit ? current : conflict.remote
        if conflict.origin == .sync { local.ops.removeAll { $0.isActive } }
        resolved.rev = against.rev
        resolved.serverVersion = against.serverVersion
        resolved.updatedAt = max(now, current.updatedAt)
        local.conflict = nil
        let ops = makeOps(from: against, to: resolved)
        local.ops += ops
        if ops.isEmpty && conflict.origin == .sync && conflict.remote.serverVersion != nil {
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
