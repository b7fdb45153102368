import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// Decides, item by item, what the server's answers mean for the local store: pure, with the
/// time, the id maker and the items' recent history passed in.
///
/// It rewrites `LocalItem`s (row, outbox ops, conflict record) and collects the history
/// versions and log events that go with them; the caller loads the items and saves them back
/// in one transaction. Its jobs have a file each: push results (`+PushResults`), pulled changes
/// and the merge every path shares (`+Pull`), the snapshot a resync reads (`+Resync`) and the
/// person's decisions (`+Resolution`). The rules:
///
/// - an applied op leaves the outbox; the item takes the new revision only when the server's
///   version is exactly the base plus this op (otherwise the pull brings the version);
/// - a pulled version counts as newer when the item's version does not hold it (`isNewer`;
///   revisions only for a server that does not stamp versions);
/// - a pulled version replaces an item only when it has no unsent changes; otherwise the two
///   are merged (`ItemMerge`) over the newest version both descend from (`mergeBase`), found
///   the same way whether the server's copy came in a push answer, a page or a snapshot;
/// - an item that needs review is merged again only with a server copy that holds the
///   version its record holds as the server's (an older one, after a restore, changes nothing);
/// - a clean merge replaces the unsent ops with ops against the server's revision and is
///   logged; a merge with conflicts marks the item needs-review, keeps what the person sees,
///   and stores base, local and remote, but only on a device that made changes of its own
///   since the base: one that merely holds a version it pulled takes the server's copy;
/// - a rejected op becomes a dead letter with its reason; ops of other items go on.
public struct SyncReconciler {
    public let now: Date
    let newID: (Date) -> String
    /// The recent history of the items whose merge may need more than the version their unsent
    /// changes rest on (`SyncTransaction.recentVersions(of:)`), newest first, by item id.
    let histories: [String: [HistoryEntry]]
    public internal(set) var history: [HistoryEntry] = []
    public internal(set) var events: [SyncEvent] = []
    public internal(set) var summary = ReconcileSummary()
    /// Versions of the history the server acknowledged, to be marked with their server version.
    public internal(set) var acknowledged: [AcknowledgedVersion] = []
    /// Server copies from applied answers of a push, by item, held until the item's last
    /// in-flight op of the push is answered.
    var unsettled: [String: ChangeItem] = [:]

    public init(now: Date, newID: @escaping (Date) -> String, histories: [String: [HistoryEntry]] = [:]) {
        self.now = now
        self.newID = newID
        self.histories = histories
    }

    // MARK: - The merge base

    /// The newest version both this device's copy and the server's copy `remote` descend from:
    /// the base of every merge, whether `remote` came in a push answer, a pulled page or a
    /// snapshot. Revision numbers cannot tell (a restored database counts them again), so it is
    /// found by `ServerVersion` among the version the unsent changes rest on (`undone`) and the
    /// server versions of the item's history: of those the server's copy holds (with `lineage`,
    /// what a snapshot says the database kept of earlier epochs), the one that holds the others.
    /// Where no version relates the two (the answers that named them were lost), a version of
    /// this device with exactly the server's content is that version. Nil when none is known:
    /// the two copies then meet as independent ones, and a person decides where they differ.
    func mergeBase(of local: LocalItem, restingOn undone: Item?, remote: Item, lineage: [String: Int64] = [:])
        -> Item?
    {
        // A server too old to stamp versions: the version the changes were made on.
        guard let version = remote.serverVersion else { return undone }
        // This device's copy was built on the server's (it may never have held that one).
        if let mine = local.item?.serverVersion, mine.holds(version) { return remote }
        let candidates = (undone.map { [$0] } ?? []) + knownServerVersions(of: local.id)
        if let newest = SyncReconciler.newest(of: candidates, heldBy: version, lineage: lineage) {
            return answerLostVersion(of: local.id, after: newest, matching: remote) ?? newest
        }
        if candidates.contains(where: { $0.hasSameContent(as: remote) }) { return remote }
        // Changes made on a copy from before versions existed rest on that copy.
        if let undone, undone.serverVersion == nil { return undone }
        return nil
    }

    /// A version this device made after `held` (the newest version the server's copy is known
    /// to hold) whose answer it never heard, when the server's copy has exactly its content:
    /// the server then holds that version, written by the op whose answer was lost, and its
    /// missing stamp is the only reason the stamps cannot show it. Without this, the device's
    /// later changes (a restore from the trash after its own delete, say) would be merged over
    /// `held` and the server's copy of its own change would undo them. Only versions this
    /// device recorded itself count, and only newer than `held`: an older version with equal
    /// content (the item went back and forth) proves nothing; and only recorded versions, not
    /// the version unsent ops rest on, which undoing a re-send makes up.
    func answerLostVersion(of id: String, after held: Item, matching remote: Item) -> Item? {
        var newer: [Item] = []
        for entry in histories[id] ?? [] {
            if let stamp = entry.item.serverVersion {
                if stamp == held.serverVersion { break }
                continue
            }
            if entry.origin != .remote { newer.append(entry.item) }
        }
        return newer.first { $0.hasSameContent(as: remote) }
    }

    /// Of `candidates` (newest first), those `version` holds, and of them the one that holds
    /// all the others (the first such when none does).
    static func newest(of candidates: [Item], heldBy version: ServerVersion, lineage: [String: Int64]) -> Item? {
        let held = candidates.filter { $0.serverVersion.map { version.holds($0, lineage: lineage) } ?? false }
        return held.first { one in held.allSatisfy { one.serverVersion!.holds($0.serverVersion!) } } ?? held.first
    }

    /// The server versions of the item's recent history, newest first.
    func knownServerVersions(of id: String) -> [Item] {
        (histories[id] ?? []).compactMap { $0.item.serverVersion == nil ? nil : $0.item }
    }

    /// True when a person changed the item on this device since `base` (an edit, an import, a
    /// resolution, an undo): only then may a merge with the server's copy ask them to review
    /// it. An unsent op that re-sends nothing but what a restore lost (it names a `basis`) is
    /// not such a change by itself; the history tells whether this device made what it
    /// re-sends. A device whose copy only holds versions it pulled (their author's answer lost
    /// before a restore, say) did not make what differs, and their author re-sends them.
    /// Without the item's history, or with a base it does not hold, every version counts.
    func madeChanges(_ local: LocalItem, since base: Item?) -> Bool {
        if local.activeOps.contains(where: { $0.op.basis == nil }) { return true }
        guard var entries = histories[local.id] else { return true }
        if let version = base?.serverVersion,
            let index = entries.firstIndex(where: { $0.item.serverVersion == version })
        {
            entries = Array(entries[..<index])
        }
        // A merge only combines changes recorded on their own (or the server's copy).
        return entries.contains { $0.origin != .remote && $0.origin != .merge }
    }

    // MARK: - Ops

    /// The ops that turn the server's version into `target`, none when they agree. A delete
    /// first sets what the copy it deletes holds, when the server's version lacks it: the
    /// tombstone keeps the last version (so a restore brings back what was deleted), which a
    /// re-sent delete of a copy the server lost needs. So does a tombstone whose last version
    /// the server's tombstone lacks: it is brought back with that version, then deleted.
    func makeOps(from remote: Item, to target: Item) -> [OutboxOp] {
        let op: Op
        switch (remote.deleted, target.deleted) {
        case (true, true) where target.hasSameFields(as: remote):
            return []
        case (_, true):
            var live = target
            live.deleted = false
            let delete = Op(
                id: newID(now), item: target.id, kind: .delete, baseRev: remote.rev, baseVersion: remote.serverVersion)
            return makeOps(from: remote, to: live) + [OutboxOp(op: delete, createdAt: now)]
        case (true, false):
            // Reviving a tombstone: a create carrying every field, as `quire restore` sends it,
            // each from the tombstone's value (what the revival rests on).
            op = Op(
                id: newID(now), item: target.id, kind: .create, baseRev: remote.rev,
                fields: target.revivalFields(from: remote), baseVersion: remote.serverVersion)
        case (false, false):
            let changes = target.changes(since: remote)
            if changes.isEmpty { return [] }
            op = Op(
                id: newID(now), item: target.id, kind: .update, baseRev: remote.rev, fields: changes,
                baseVersion: remote.serverVersion)
        }
        return [OutboxOp(op: op, createdAt: now)]
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
                let fields = entry.op.fields ?? [:]
                // A revival (`quire restore`) rests on the tombstone it revived: the values it
                // changed from (edits made since fold into it), deleted. One queued before
                // revivals kept them has every `from` null, and only the deleted flag is known.
                if fields.values.contains(where: { $0.from != .null }), entry.op.basis == nil {
                    undo(fields, of: &base, item: item, now: now)
                    base.deleted = true
                    continue
                }
                if entry.op.baseRev == 0 {
                    // A re-sent item the server had lost rests on the version it brings back.
                    guard entry.op.basis != nil else { return nil }
                    for (field, change) in fields { try? base.set(field, to: change.from, now: now) }
                    base.deleted = false
                    base.rev = 0
                    base.serverVersion = entry.op.basis
                    return base
                }
                base.deleted = true
            case .delete:
                base.deleted = false
            case .update:
                undo(entry.op.fields ?? [:], of: &base, item: item, now: now)
            }
        }
        base.rev = first.op.baseRev
        base.serverVersion = first.op.baseVersion
        return base
    }

    /// Sets each field of `base` back to the value the op changed it from (a body sent as its
    /// hash stays).
    private static func undo(_ fields: [Field: FieldChange], of base: inout Item, item: Item, now: Date) {
        for (field, change) in fields {
            switch change.from {
            case .sha256, .mac, .sealed: continue
            default: break
            }
            try? base.set(field, to: change.from, now: now)
            if field == .done { base.doneAt = item.doneAt }
        }
    }

    /// Drops the leading ops that were sent and whose changes the server's version already
    /// holds: the server applied them and the answers were lost (or another device made the
    /// same change). Merging them as this device's unsent changes would count them twice and,
    /// next to a delete, report an edit of this device's own as one made elsewhere. Sent ops
    /// are held together when the version they made has the server's content (a create and an
    /// edit of it, both answers lost: the create's values are no longer all there), or one by
    /// one when the server's version has every value each sets.
    func dropOps(alreadyHeldBy remote: Item, in local: inout LocalItem) {
        let active = local.activeOps
        let sent = active.prefix { $0.attempts > 0 || $0.state == .inFlight }
        var dropped = Set<String>()
        if let current = local.item {
            for count in stride(from: sent.count, to: 0, by: -1) {
                let made = SyncReconciler.base(of: current, undoing: Array(active[count...]), now: now)
                if made?.hasSameContent(as: remote) ?? false {
                    dropped = Set(active[..<count].map(\.op.id))
                    break
                }
            }
        }
        if dropped.isEmpty {
            for entry in sent {
                guard remote.holds(entry.op) || SyncReconciler.isSuperseded(entry.op, by: remote) else { break }
                dropped.insert(entry.op.id)
            }
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

    /// Records the server's copy an item is merged with as a version of its history, unless
    /// the history has that version already: the merge rests on it, so a later merge (after a
    /// restore brought back a server that holds it and not the merge's own version) finds it
    /// by its version stamp as the newest version both hold.
    mutating func remember(_ remote: Item) {
        guard let version = remote.serverVersion else { return }
        let known = (histories[remote.id] ?? []) + history.filter { $0.item.id == remote.id }
        if known.contains(where: { $0.item.serverVersion == version && $0.item.hasSameContent(as: remote) }) {
            return
        }
        var copy = remote
        copy.syncState = .synced
        history.append(HistoryEntry(item: copy, origin: .remote))
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
    func remoteItem(_ change: ChangeItem, local: Item?) -> Item {
        if change.isContentless, var kept = local {
            // SPEC: a deleted item's content stays on the devices that had it. The server's
            // tombstone says only that it is deleted, and at which version.
            kept.deleted = true
            kept.rev = change.rev
            kept.serverVersion = change.version
            kept.updatedAt = change.updatedAt
            kept.syncState = .synced
            return kept
        }
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

    mutating func log(_ kind: SyncEventKind, _ message: String, item: String?, op: String?) {
        events.append(SyncEvent(at: now, kind: kind, message: message, itemID: item, opID: op))
    }
}
