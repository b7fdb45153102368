import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// Decides, item by item, what the server's answers mean for the local store: pure, with the
/// time and the id maker passed in.
///
/// It rewrites `LocalItem`s (row, outbox ops, conflict record) and collects the history
/// versions and log events that go with them; the caller loads the items and saves them back
/// in one transaction. The rules:
///
/// - an applied op leaves the outbox; the item takes the new revision only when the server's
///   version is exactly the base plus this op (otherwise the pull brings the version);
/// - a pulled version replaces an item only when it has no unsent changes; otherwise the two
///   are merged (`ItemMerge`) against the version the unsent changes were made on;
/// - a clean merge replaces the unsent ops with one op against the server's revision and is
///   logged; a merge with conflicts marks the item needs-review, keeps what the person sees,
///   and stores base, local and remote;
/// - a rejected op becomes a dead letter with its reason; ops of other items go on.
public struct SyncReconciler {
    public let now: Date
    private let newID: (Date) -> String
    public private(set) var history: [HistoryEntry] = []
    public private(set) var events: [SyncEvent] = []
    public private(set) var summary = ReconcileSummary()
    /// Versions of the history the server acknowledged, to be marked with their server version.
    public private(set) var acknowledged: [AcknowledgedVersion] = []
    /// Server copies from applied answers of a push, by item, held until the item's last
    /// in-flight op of the push is answered.
    private var unsettled: [String: ChangeItem] = [:]

    public init(now: Date, newID: @escaping (Date) -> String) {
        self.now = now
        self.newID = newID
    }

    // MARK: - Push results

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
                unsettled[local.id] = newer(current, than: unsettled[local.id])
            } else if var item = local.item, let rev = result.rev, rev == sent.baseRev + 1, rev > item.rev {
                // Exactly this device's version: take the server's revision, version and times,
                // so that every device holds the same bytes.
                item.rev = rev
                if let version = result.version {
                    item.serverVersion = version
                    acknowledged.append(
                        AcknowledgedVersion(
                            itemID: local.id, opID: sent.id, rev: rev, version: version, updatedAt: result.updatedAt,
                            doneAt: result.doneAt))
                }
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

    /// The later of two server copies of one item, by revision (both are answers of one push).
    private func newer(_ change: ChangeItem, than other: ChangeItem?) -> ChangeItem {
        guard let other else { return change }
        return other.rev > change.rev ? other : change
    }

    // MARK: - Pulled changes

    /// Applies a version pulled from the changes feed.
    public mutating func apply(pulled remote: ChangeItem, to local: inout LocalItem) {
        merge(remote: remote, into: &local, force: false)
        settleBadge(&local)
    }

    /// Takes or merges a server version. `force` merges even when the version is not newer
    /// than the local revision (a conflict answer, a snapshot after a server restore).
    private mutating func merge(remote change: ChangeItem, into local: inout LocalItem, force: Bool) {
        guard let current = local.item else {
            var item = remoteItem(change, local: nil)
            item.syncState = .synced
            local.item = item
            history.append(HistoryEntry(item: item, origin: .remote))
            summary.pulled += 1
            return
        }
        if !force && change.rev <= current.rev { return }
        let remote = remoteItem(change, local: current)

        if let conflict = local.conflict {
            // Still waiting for the person: the newer server version replaces the old one in the
            // record, and the merge is tried again (it may have become clean).
            let merge = ItemMerge(base: conflict.base, local: current, remote: remote)
            settle(merge, remote: remote, local: &local, wasInConflict: true)
            return
        }
        dropOps(alreadyHeldBy: remote, in: &local)
        let active = local.activeOps
        if active.isEmpty {
            var unchanged = current
            unchanged.syncState = remote.syncState
            if unchanged == remote { return }
            var item = remote
            item.syncState = .synced
            local.item = item
            history.append(HistoryEntry(item: item, origin: .remote))
            summary.pulled += 1
            return
        }
        var base = SyncReconciler.base(of: current, undoing: active, now: now)
        if let first = active.first?.op, first.kind == .create, first.baseRev == 0, let basis = first.basis,
            !(remote.serverVersion?.holds(basis) ?? false)
        {
            // A re-sent item met a copy another device brought back that lacks what this one
            // re-sends: the lost version is no common ancestor of the two, and none is known
            // here, so the copies meet as two independent ones (a person decides where they
            // differ) rather than the server's copy reading as a removal of what it lacks.
            base = nil
        }
        settle(
            ItemMerge(base: base, local: current, remote: remote), remote: remote, local: &local, wasInConflict: false)
    }

    /// Writes the outcome of a merge: a clean one as a new op, a conflicting one as a record.
    private mutating func settle(_ merge: ItemMerge, remote: Item, local: inout LocalItem, wasInConflict: Bool) {
        let unsent = Set(local.activeOps.map(\.op.id))
        local.ops.removeAll { unsent.contains($0.op.id) }
        if merge.needsReview {
            var shown = merge.item
            shown.rev = remote.rev
            shown.syncState = .needsReview
            local.conflict = ConflictRecord(
                itemID: local.id, base: merge.base,
                local: wasInConflict ? (local.conflict?.local ?? merge.local) : merge.local,
                remote: remote, fields: merge.conflicts, detectedAt: local.conflict?.detectedAt ?? now)
            if shown != local.item {
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
        let op = makeOp(from: remote, to: merged)
        if let op { local.ops.append(op) } else { merged = SyncReconciler.serverCopy(remote, for: merged) }
        // The server's copy held nothing this device lacked (its own earlier ops of the push):
        // the unsent changes now rest on the newer revision, and there is nothing to report.
        let rebasedOnly =
            !wasInConflict && op != nil
            && local.item.map { shown in Field.allCases.allSatisfy { shown.value(of: $0) == merged.value(of: $0) } }
                ?? false
        local.item = merged
        history.append(HistoryEntry(item: merged, origin: .merge, opID: op?.op.id))
        if rebasedOnly { return }
        summary.merged += 1
        let pushed =
            op.map {
                " and queued as \($0.op.kind.rawValue) of \($0.op.fields?.keys.sorted().map(\.rawValue).joined(separator: ", ") ?? "the item")"
            } ?? ""
        log(
            .merged,
            (wasInConflict ? "merged cleanly with a newer server version" : "merged with the server's changes")
                + pushed,
            item: local.id, op: op?.op.id)
    }

    // MARK: - Snapshot (resync)

    /// Reconciles an item against the server's snapshot. `remote` is nil when the snapshot does
    /// not have the item live; `lineage` is what the server's database kept of its earlier
    /// epochs; `known` are the server versions this device's history holds for the item, newest
    /// first (needed only when the server lost the version this copy rests on).
    ///
    /// Whether the server holds this device's version is decided by `ServerVersion`, never by
    /// revision numbers, which a restored database counts again. When it holds it, the server's
    /// copy is newer or equal and the usual rules apply. When it does not (a restore lost it),
    /// what the device has is merged three ways with what the server has, over the newest
    /// version both hold, and sent as one change: a device never overwrites a version it has
    /// not seen, and one that only holds what the server lost (it changed nothing) sends the
    /// lost changes without a conflict.
    public mutating func reconcile(
        snapshot remote: ChangeItem?, lineage: ServerVersion?, known: [Item], to local: inout LocalItem
    ) {
        defer { settleBadge(&local) }
        guard let current = local.item else {
            if let remote { merge(remote: remote, into: &local, force: true) }
            return
        }
        let lineage = lineage?.stamps ?? [:]
        let serverHolds = { (version: ServerVersion) -> Bool in
            (remote?.version ?? ServerVersion()).holds(version, lineage: lineage)
        }
        // A copy from before versions existed (or never acknowledged) is taken as held.
        let held = current.serverVersion.map(serverHolds) ?? true
        if held || local.conflict != nil {
            guard let remote else {
                reconcileMissing(current, local: &local)
                return
            }
            merge(remote: remote, into: &local, force: true)
            return
        }
        let lost = current.serverVersion!
        let ancestor = known.first { $0.serverVersion.map(serverHolds) ?? false }
        guard let remote else {
            if let ancestor {
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
        // The server's copy is one this device's copy was built on (this device may never have
        // held it: it pulled only a later version): then it is itself the newest version both
        // hold, and only this device changed anything since. Where no version relates the two
        // (the answer that named the server's version was lost before a restore), a version
        // this device acknowledged with exactly the server's content is that same version.
        let serverIsAncestor =
            remote.version.map { lost.holds($0) } ?? false
            || (ancestor == nil && known.contains { SyncReconciler.sameContent($0, server) })
        resend(current, over: server, base: serverIsAncestor ? server : ancestor, lost: lost, local: &local)
    }

    /// A device copy whose item is gone from the server although the server holds the
    /// version the copy rests on: deleted there (its tombstone may be purged already).
    private mutating func reconcileMissing(_ current: Item, local: inout LocalItem) {
        if current.rev == 0 { return }  // never reached the server; its create op will
        if current.deleted {
            // Gone on both sides; a delete still queued has nothing left to delete.
            let unsent = Set(local.activeOps.filter { $0.op.kind == .delete }.map(\.op.id))
            local.ops.removeAll { unsent.contains($0.op.id) }
            return
        }
        var tombstone = current
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
        // over that version, and a device that changed nothing takes what the server has.
        let lostCopy = SyncReconciler.base(of: current, undoing: local.activeOps, now: now) ?? current
        local.ops.removeAll { $0.isActive }
        var fields = SyncReconciler.allFields(of: item)
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
        summary.resent += 1
        log(.resync, "the server had lost this item: sending it again", item: local.id, op: op.op.id)
    }

    /// Merges this device's copy, which holds versions the server lost, with the server's, over
    /// `base` (the newest version both hold; nil when none is known), and queues the result as
    /// one change against the server's version that names the lost version it brings back.
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
        var op = makeOp(from: remote, to: merged)
        op?.op.basis = lost
        if let op {
            local.ops.append(op)
        } else if remote.serverVersion != nil {
            merged = SyncReconciler.serverCopy(remote, for: merged)
        }
        if merged != current {
            local.item = merged
            history.append(HistoryEntry(item: merged, origin: .merge, opID: op?.op.id))
        } else {
            local.item = merged
        }
        if op != nil {
            summary.resent += 1
            log(
                .resync, "the server had lost changes this device holds: sending them again", item: local.id,
                op: op?.op.id)
        }
    }

    /// Re-sends what the server lost and this device's unsent changes as two ops: first the
    /// lost version merged with the server's (it names the lost version as its basis and holds
    /// nothing else, so when the server turns out to hold that version already, brought back by
    /// another device, the op is simply dropped), then the unsent changes on top of it. False,
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
        var resent = makeOp(from: remote, to: restored)
        resent?.op.basis = lost
        if let resent { local.ops.append(resent) }
        if let own = makeOp(from: restored, to: merged) { local.ops.append(own) }
        if merged != current {
            history.append(HistoryEntry(item: merged, origin: .merge, opID: resent?.op.id))
        }
        local.item = merged
        if let resent {
            summary.resent += 1
            log(
                .resync, "the server had lost changes this device holds: sending them again", item: local.id,
                op: resent.op.id)
        }
        return true
    }

    // MARK: - Resolution

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
        let op = makeOp(from: against, to: resolved)
        if let op {
            local.ops.append(op)
        } else if conflict.origin == .sync, conflict.remote.serverVersion != nil {
            // The choice is what the server has: nothing to send, and the item is the server's
            // copy byte for byte (its times too), as on every other device.
            resolved = SyncReconciler.serverCopy(conflict.remote, for: resolved)
        }
        local.item = resolved
        settleBadge(&local)
        history.append(HistoryEntry(item: local.item!, origin: .resolve, opID: op?.op.id))
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

    // MARK: - Helpers

    /// Sets the row's badge from the facts (ops, conflict).
    public func settleBadge(_ local: inout LocalItem) {
        guard var item = local.item else { return }
        let badge = local.badge
        if item.syncState != badge {
            item.syncState = badge
            local.item = item
        }
    }

    /// The domain item for a server version, keeping the local `doneAt` when `done` agrees.
    private func remoteItem(_ change: ChangeItem, local: Item?) -> Item {
        let doneAt =
            local.flatMap { $0.done == change.done ? $0.doneAt : nil } ?? (change.done ? change.updatedAt : nil)
        return change.item(syncState: .synced, doneAt: doneAt)
    }

    /// A merge that leaves nothing to send is the server's version: it is taken as the server
    /// has it, times and all, rather than with the merge's own `updatedAt` (the later of the two
    /// sides), which no op would ever bring to the server or the other devices.
    static func serverCopy(_ remote: Item, for merged: Item) -> Item {
        var copy = remote
        copy.syncState = merged.syncState
        return copy
    }

    /// The op that turns the server's version into `target`, or nil when they agree.
    func makeOp(from remote: Item, to target: Item) -> OutboxOp? {
        let op: Op
        switch (remote.deleted, target.deleted) {
        case (true, true):
            return nil
        case (false, true):
            op = Op(
                id: newID(now), item: target.id, kind: .delete, baseRev: remote.rev, baseVersion: remote.serverVersion)
        case (true, false):
            // Reviving a tombstone: a create carrying every field, as `quire restore` sends it.
            op = Op(
                id: newID(now), item: target.id, kind: .create, baseRev: remote.rev,
                fields: SyncReconciler.allFields(of: target), baseVersion: remote.serverVersion)
        case (false, false):
            let changes = target.changes(since: remote)
            if changes.isEmpty { return nil }
            op = Op(
                id: newID(now), item: target.id, kind: .update, baseRev: remote.rev, fields: changes,
                baseVersion: remote.serverVersion)
        }
        return OutboxOp(op: op, createdAt: now)
    }

    static func allFields(of item: Item) -> [Field: FieldChange] {
        Dictionary(uniqueKeysWithValues: Field.allCases.map { ($0, FieldChange(from: .null, to: item.value(of: $0))) })
    }

    /// The version the unsent ops were made on: the item with their changes undone, newest
    /// first, so each field ends at the value the earliest op changed it from. Nil when one of
    /// them creates the item from nothing (the server never had it).
    public static func base(of item: Item, undoing ops: [OutboxOp], now: Date) -> Item? {
        guard let first = ops.first else { return item }
        var base = item
        for entry in ops.reversed() {
            switch entry.op.kind {
            case .create:
                if entry.op.baseRev == 0 {
                    // A re-sent item the server had lost rests on the version it brings back.
                    guard entry.op.basis != nil, let fields = entry.op.fields else { return nil }
                    for (field, change) in fields { try? base.set(field, to: change.from, now: now) }
                    base.deleted = false
                    base.rev = 0
                    base.serverVersion = entry.op.basis
                    return base
                }
                // A revived tombstone: the server's version was deleted.
                base.deleted = true
            case .delete:
                base.deleted = false
            case .update:
                for (field, change) in entry.op.fields ?? [:] {
                    if case .sha256 = change.from { continue }
                    try? base.set(field, to: change.from, now: now)
                    if field == .done { base.doneAt = item.doneAt }
                }
            }
        }
        base.rev = first.op.baseRev
        base.serverVersion = first.op.baseVersion
        return base
    }

    /// Drops the leading ops that were sent and whose every change the server's version already
    /// holds: the server applied them and the answer was lost (or another device made the same
    /// change). Merging them as this device's unsent changes would count them twice and, next
    /// to a delete, report an edit of this device's own as one made elsewhere.
    private func dropOps(alreadyHeldBy remote: Item, in local: inout LocalItem) {
        var dropped = Set<String>()
        for entry in local.activeOps {
            guard entry.attempts > 0 || entry.state == .inFlight,
                SyncReconciler.holds(entry.op, remote) || SyncReconciler.isSuperseded(entry.op, by: remote)
            else { break }
            dropped.insert(entry.op.id)
        }
        if !dropped.isEmpty { local.ops.removeAll { dropped.contains($0.op.id) } }
    }

    /// True when `op` re-sends a version a restored server had lost, and `item` is a version
    /// built on both that lost version and the one the op was made against: another device
    /// brought the lost changes back first, and the op has nothing more to say. (A re-send
    /// carries only those two versions merged; unsent changes travel in an op of their own.)
    static func isSuperseded(_ op: Op, by item: Item) -> Bool {
        guard let basis = op.basis, let version = item.serverVersion, version.holds(basis) else { return false }
        switch op.kind {
        case .create: return (op.fields ?? [:]).values.allSatisfy { $0.from == $0.to }
        case .update: return op.baseVersion.map { version.holds($0) } ?? false
        case .delete: return false
        }
    }

    /// True when two versions of an item hold the same values (times and revisions aside).
    static func sameContent(_ one: Item, _ other: Item) -> Bool {
        one.deleted == other.deleted && Field.allCases.allSatisfy { one.value(of: $0) == other.value(of: $0) }
    }

    /// True when `item` has every value `op` sets.
    static func holds(_ op: Op, _ item: Item) -> Bool {
        switch op.kind {
        case .delete: return item.deleted
        case .create, .update:
            guard !item.deleted else { return false }
            return (op.fields ?? [:]).allSatisfy { field, change in
                if field == .tags, case .strings(let list) = change.to { return Tags.normalize(list) == item.tags }
                return item.value(of: field) == change.to
            }
        }
    }

    private mutating func log(_ kind: SyncEventKind, _ message: String, item: String?, op: String?) {
        events.append(SyncEvent(at: now, kind: kind, message: message, itemID: item, opID: op))
    }
}
