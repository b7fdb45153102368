import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// The sync engine's local bookkeeping, each operation one transaction of a `SyncStorage`.
///
/// A round goes: `takeBatch` (ops marked in flight, badges show syncing), the exchange, then
/// `applyResults` and `applyPage` (each in its own transaction, the cursor advanced only in the
/// transaction that applied its page). When the exchange fails, `returnInFlight` puts the ops
/// back; after a crash the next round does the same first. Re-sending is safe because every op
/// keeps its id, and the server answers a replayed id as it did the first time.
public struct SyncLedger: Sendable {
    /// How many events the log keeps.
    public static let eventLogLimit = SyncEvent.logLimit
    /// The longest message an event keeps, in characters: with `eventLogLimit` this bounds
    /// the log's size, whatever a misbehaving server or proxy puts in an error body.
    public static let eventMessageLimit = 500

    public let storage: any SyncStorage
    private let clock: @Sendable () -> Date
    private let newID: @Sendable (Date) -> String

    public init(
        storage: any SyncStorage, now: @escaping @Sendable () -> Date,
        newID: @escaping @Sendable (Date) -> String
    ) {
        self.storage = storage
        self.clock = now
        self.newID = newID
    }

    public func now() -> Date { clock() }

    // MARK: - Reads

    public func position() throws -> SyncMeta {
        try storage.read { try $0.position() }
    }

    /// The feed sequence number of the pull cursor (`SEQ.EPOCH`), nil before the first pull.
    public func cursorSeq() -> Int64? {
        guard let cursor = try? position().cursor, let dot = cursor.firstIndex(of: ".") else { return nil }
        return Int64(cursor[..<dot])
    }

    /// True when pending ops wait that the next request would carry.
    public func hasSendableOps() throws -> Bool {
        try storage.read { try !$0.sendableOps(limit: 1).isEmpty }
    }

    /// The state hash of this device's copy, or nil while local changes are outstanding (the
    /// copy then differs from the server's on purpose).
    public func quiescentStateHash() throws -> String? {
        try storage.read { tx in
            if try tx.hasOutstandingChanges() { return nil }
            return StateHash(versions: try tx.liveVersions()).hex
        }
    }

    // MARK: - A round

    /// Marks up to `limit` pending ops in flight, in creation order (so each item's ops go in
    /// the order they were made), counts the attempt, and returns them as they go on the wire.
    ///
    /// An op that was ever sent (`attempts > 0`) may already be applied on the server, which
    /// answers its id with that result forever: local edits must never fold into it. So this
    /// commit is synced before the ops go out: were it lost in a power cut after the server
    /// applied them, a later edit could fold into an op the server already answered, and be
    /// acknowledged without ever being applied.
    public func takeBatch(limit: Int) throws -> [Op] {
        try storage.write(.synced) { tx in
            let ops = try tx.sendableOps(limit: limit)
            let sending = Set(ops.map(\.op.id))
            try update(Set(ops.map(\.op.item)), in: tx) { items, reconciler in
                for id in items.keys {
                    for index in items[id]!.ops.indices where sending.contains(items[id]!.ops[index].op.id) {
                        items[id]!.ops[index].state = .inFlight
                        items[id]!.ops[index].attempts += 1
                    }
                    reconciler.settleBadge(&items[id]!)
                }
            }
            return ops.map(\.op)
        }
    }

    /// Puts every in-flight op back to pending. A server fault (not a network failure) is kept
    /// as the ops' last error: an op sent many times that keeps meeting one shows the error
    /// badge, while being offline never does.
    public func returnInFlight(serverFault: Bool, reason: String?) throws {
        try storage.write(.replayable) { tx in
            let ops = try tx.inFlightOps()
            guard !ops.isEmpty else { return }
            let returning = Set(ops.map(\.op.id))
            try update(Set(ops.map(\.op.item)), in: tx) { items, reconciler in
                for id in items.keys {
                    for index in items[id]!.ops.indices where returning.contains(items[id]!.ops[index].op.id) {
                        items[id]!.ops[index].state = .pending
                        items[id]!.ops[index].lastError = serverFault ? reason : nil
                    }
                    reconciler.settleBadge(&items[id]!)
                }
            }
        }
    }

    /// Applies the results of a push in one transaction.
    public func applyResults(_ results: [OpResult], sent: [Op]) throws -> ReconcileSummary {
        guard !results.isEmpty else { return ReconcileSummary() }
        return try storage.write(.replayable) { tx in
            let itemOfOp = Dictionary(sent.map { ($0.id, $0.item) }, uniquingKeysWith: { first, _ in first })
            // Only an answer carrying the server's copy can need a merge base from the history.
            let merging = Set(results.filter { $0.current != nil }.compactMap { itemOfOp[$0.op] })
            return try update(Set(sent.map(\.item)), in: tx, knowing: { merging.contains($0.id) }) {
                items, reconciler in
                for result in results {
                    guard let id = itemOfOp[result.op], items[id] != nil else { continue }
                    reconciler.apply(result, to: &items[id]!)
                }
            }
        }
    }

    /// Applies a page of changes and moves the cursor past it, in one transaction, with the
    /// versions of the answer that did not open here (`SyncExchange.unreadable`).
    public func applyPage(_ response: SyncResponse, unreadable: [ItemUnreadable] = []) throws -> ReconcileSummary {
        try storage.write(.replayable) { tx in
            let seen = versions(unreadable)
            let ids = Set(response.changes.map(\.id)).union(seen.keys)
            let summary = try update(ids, in: tx, creating: true, knowing: SyncLedger.mayMerge) {
                items, reconciler in
                for change in response.changes {
                    reconciler.apply(pulled: change, to: &items[change.id]!)
                }
                for (id, version) in seen { reconciler.record(unreadable: version, in: &items[id]!) }
            }
            var position = try tx.position()
            position.cursor = response.cursor
            position.epoch = response.epoch
            position.stateHash = response.stateHash
            try tx.setPosition(position)
            return summary
        }
    }

    /// Reconciles one snapshot page: its items, and the local items in the id range it
    /// covers that the server does not have (`after` is the page's request parameter). An item
    /// of the page that did not open here (`unreadable`) is on the server all the same: its
    /// version is recorded, and the copy this device holds stays as it is.
    public func applySnapshotPage(
        _ page: SnapshotPage, after: String?, unreadable: [ItemUnreadable] = []
    ) throws -> ReconcileSummary {
        try storage.write(.replayable) { tx in
            // The page's last id, whether that item opened or not.
            let through = page.next
            let localInRange = try tx.items(idAfter: after, through: through)
            let remoteByID = Dictionary(page.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let seen = versions(unreadable)
            let ids = Set(remoteByID.keys).union(localInRange.map(\.id)).union(seen.keys)
            let lineage = page.lineage?.stamps ?? [:]
            // The history, for copies with unsent changes or resting on a version the server lost.
            let knowing = { (local: LocalItem) -> Bool in
                guard let version = local.item?.serverVersion else { return SyncLedger.mayMerge(local) }
                let server = remoteByID[local.id]?.version ?? ServerVersion()
                return SyncLedger.mayMerge(local) || !server.holds(version, lineage: lineage)
            }
            return try update(ids, in: tx, creating: true, knowing: knowing) { items, reconciler in
                for id in ids.sorted() {
                    if let version = seen[id] {
                        reconciler.record(unreadable: version, in: &items[id]!)
                    } else {
                        reconciler.reconcile(snapshot: remoteByID[id], lineage: page.lineage, to: &items[id]!)
                    }
                }
            }
        }
    }

    /// The newest version of each item that did not open, as the store records it.
    func versions(_ unreadable: [ItemUnreadable]) -> [String: UnreadableVersion] {
        let time = now()
        var newest: [String: UnreadableVersion] = [:]
        for item in unreadable where item.rev >= newest[item.id]?.rev ?? Int.min {
            newest[item.id] = UnreadableVersion(
                itemID: item.id, rev: item.rev, deleted: item.deleted, reason: item.reason, seenAt: time,
                triedKeys: item.triedKeys)
        }
        return newest
    }

    /// True when a server copy of the item may be merged with changes of this device's.
    static func mayMerge(_ local: LocalItem) -> Bool {
        !local.activeOps.isEmpty || local.conflict != nil
    }

    /// Ends a resync: the feed continues from the snapshot's first cursor, in the new epoch.
    public func finishResync(cursor: String, epoch: String) throws {
        try storage.write(.replayable) { tx in
            var position = try tx.position()
            position.cursor = cursor
            position.epoch = epoch
            try tx.setPosition(position)
        }
    }

    /// Sets one op aside as a dead letter (the server refused it as too large, say).
    public func deadLetter(opID: String, item: String, reason: String) throws {
        try storage.write(.replayable) { tx in
            try update([item], in: tx) { items, reconciler in
                guard let index = items[item]?.ops.firstIndex(where: { $0.op.id == opID }) else { return }
                items[item]!.ops[index].state = .rejected
                items[item]!.ops[index].lastError = reason
                reconciler.settleBadge(&items[item]!)
            }
            try append(
                [SyncEvent(at: now(), kind: .deadLetter, message: "set aside: \(reason)", itemID: item, opID: opID)],
                in: tx)
        }
    }

    /// A round went through: the device is no longer refused for want of keys either.
    public func recordSuccess() throws {
        try storage.write(.replayable) { tx in
            var position = try tx.position()
            position.lastSuccessAt = now()
            position.lockedAt = nil
            try tx.setPosition(position)
        }
    }

    /// Logs the server's refusal for want of the account's keys and keeps that the device is
    /// locked (`SyncMeta.lockedAt`), in one transaction: later rounds that fail another way
    /// (offline) do not make it forget.
    public func recordLocked(_ event: SyncEvent) throws {
        try storage.write(.replayable) { tx in
            var position = try tx.position()
            position.lockedAt = event.at
            try tx.setPosition(position)
            try append([event], in: tx)
        }
    }

    public func log(_ kind: SyncEventKind, _ message: String, item: String? = nil, op: String? = nil) throws {
        try record(SyncEvent(at: now(), kind: kind, message: message, itemID: item, opID: op))
    }

    /// Logs the start of a round. When the round before logged nothing after its own start (it
    /// found nothing to do), that line is moved to now and counts such rounds instead: a quiet
    /// app polling every minute must not push real events out of the log one line at a time.
    public func logRoundStart(_ message: String) throws {
        try storage.write(.replayable) { tx in
            guard let last = try tx.newestEvent(), last.kind == .syncStart else {
                try append([SyncEvent(at: now(), kind: .syncStart, message: message)], in: tx)
                return
            }
            let quiet = SyncLedger.quietRounds(in: last.message) + 1
            let counted = "\(message) · \(quiet) round\(quiet == 1 ? "" : "s") before found nothing to do"
            try tx.restamp(event: last.seq, at: now(), message: counted)
        }
    }

    /// How many quiet rounds a start line already counts (`logRoundStart`).
    static func quietRounds(in message: String) -> Int {
        guard let range = message.range(of: " · ", options: .backwards) else { return 0 }
        let words = message[range.upperBound...].split(separator: " ")
        return words.first.flatMap { Int($0) } ?? 0
    }

    /// Appends an event with its facts (bytes, duration, failure...) as it is, time included.
    public func record(_ event: SyncEvent) throws {
        try storage.write(.replayable) { tx in try append([event], in: tx) }
    }

    /// Appends to the bounded log: each message one line of at most `eventMessageLimit`.
    private func append(_ events: [SyncEvent], in tx: any SyncTransaction) throws {
        try tx.appendEvents(events.map(Self.bounded), keeping: Self.eventLogLimit)
    }

    static func bounded(_ event: SyncEvent) -> SyncEvent {
        var event = event
        var line = event.message.replacingOccurrences(of: "\r\n", with: " ")
        line = String(line.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        if line.count > eventMessageLimit {
            line = String(line.prefix(eventMessageLimit - 1)) + "…"
        }
        event.message = line
        return event
    }

    // MARK: - The person's decisions

    /// Settles an item that needs review; the result becomes a new local change. Returns the
    /// item as it now is, or nil when it needed no review.
    public func resolve(_ itemID: String, keeping choice: ItemMerge.Resolution) throws -> Item? {
        try settle(itemID) { reconciler, local in reconciler.resolve(&local, keeping: choice) }
    }

    /// Settles an item that needs review with one side (or a body the person wrote) and the
    /// fields chosen one by one, in one transaction: a crash can never keep half the choices.
    public func resolve(
        _ itemID: String, keeping choice: ItemMerge.Resolution, body: String? = nil,
        setting fields: [Field: FieldValue],
        screen: SyncReconciler.ResolutionScreen? = nil
    ) throws -> Item? {
        var refusal: (any Error)?
        let settled = try settle(itemID) { reconciler, local in
            do {
                return try reconciler.resolve(&local, keeping: choice, body: body, setting: fields, screen: screen)
            } catch {
                refusal = error
                return false
            }
        }
        if let refusal { throw refusal }
        return settled
    }

    /// Settles an item that needs review with a body the person wrote.
    public func resolve(_ itemID: String, body: String) throws -> Item? {
        try settle(itemID) { reconciler, local in reconciler.resolve(&local, body: body) }
    }

    /// Queues a dead letter again under a new op id.
    public func retryDeadLetter(_ opID: String, item: String) throws -> Bool {
        try settle(item) { reconciler, local in reconciler.retryDeadLetter(opID, in: &local) } != nil
    }

    /// Drops a dead letter.
    public func discardDeadLetter(_ opID: String, item: String) throws -> Bool {
        try settle(item) { reconciler, local in reconciler.discardDeadLetter(opID, in: &local) } != nil
    }

    private func settle(_ itemID: String, _ body: (inout SyncReconciler, inout LocalItem) -> Bool) throws -> Item? {
        try storage.write { tx in
            var changed = false
            var result: Item?
            try update([itemID], in: tx) { items, reconciler in
                guard items[itemID] != nil else { return }
                changed = body(&reconciler, &items[itemID]!)
                result = items[itemID]?.item
            }
            return changed ? result : nil
        }
    }

    // MARK: - The pattern every write follows

    /// Loads the items, lets `body` change them with a reconciler, and saves what changed,
    /// with the history versions and events the reconciler collected.
    @discardableResult
    /// `knowing` picks the items whose recent history the reconciler gets (to find a merge
    /// base older than the unsent changes): read only for those, as it costs a query each.
    func update(
        _ ids: Set<String>, in tx: any SyncTransaction, creating: Bool = false,
        knowing: (LocalItem) -> Bool = { _ in false },
        _ body: (inout [String: LocalItem], inout SyncReconciler) -> Void
    ) throws -> ReconcileSummary {
        let time = now()
        let before = try tx.items(Array(ids))
        var after = before
        if creating {
            for id in ids where after[id] == nil { after[id] = LocalItem(id: id) }
        }
        var histories: [String: [HistoryEntry]] = [:]
        for (id, local) in before where knowing(local) { histories[id] = try tx.recentVersions(of: id) }
        var reconciler = SyncReconciler(now: time, newID: newID, histories: histories)
        body(&after, &reconciler)
        let changes = after.sorted(by: { $0.key < $1.key }).compactMap { id, new -> LocalChange? in
            let old = before[id] ?? LocalItem(id: id)
            return new == old ? nil : LocalChange(new: new, old: old)
        }
        try tx.save(changes)
        if !reconciler.history.isEmpty { try tx.appendHistory(reconciler.history, at: time) }
        if !reconciler.acknowledged.isEmpty { try tx.markAcknowledged(reconciler.acknowledged) }
        if !reconciler.events.isEmpty { try append(reconciler.events, in: tx) }
        return reconciler.summary
    }
}
