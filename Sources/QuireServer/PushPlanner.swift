import Foundation
import QuireCore
import QuireProtocol

/// How many ops of a push ended each way (for metrics and logs).
struct OpTally: Sendable, Hashable {
    var applied = 0
    var conflicted = 0
    var skipped = 0
    var rejected = 0
    /// Ops answered from memory because their id was seen before.
    var duplicate = 0
}

/// A remembered answer: the idempotency record of one op id.
///
/// It keeps what a replay needs (status, revision, version, times, reason), never a copy of
/// the item: a record is small whatever the item's size, and a replay of an answer that
/// carried the item carries it as the server holds it then (`carriesItem`).
struct OpRecord: Sendable, Hashable {
    let op: String
    /// The answer without its item copy.
    let result: OpResult
    /// The answer carried the item (a conflict, or an op applied to a version the device had
    /// not seen).
    let carriesItem: Bool
    /// The op applied to exactly the version it was made on (or to what its batch's previous
    /// op for the item made from that version): a later op of the device made on the same
    /// version rests on it when the op is replayed, as it would have in its first batch.
    let chained: Bool
    /// The record as the stores keep it, encoded once: the push counts its bytes against the
    /// user's quota and the store writes it.
    let storedText: String

    init(op: String, answer: OpResult, chained: Bool = false) {
        self.op = op
        var result = answer
        carriesItem = result.current != nil
        result.current = nil
        self.result = result
        self.chained = chained
        let text = result.compactJSON()
        let marks = (carriesItem ? #","carriesItem":true"# : "") + (chained ? #","chained":true"# : "")
        storedText = marks.isEmpty ? text : String(text.dropLast()) + marks + "}"
    }

    /// The marks stored after the answer's JSON (JSON readers skip keys they do not know, so
    /// the stored text still reads as an `OpResult`).
    private struct Marks: Codable {
        var carriesItem: Bool?
        var chained: Bool?
    }

    /// Reads a stored record; one written before records lost their item copies is read the
    /// same way (its copy dropped), and one written before the chain mark as not chained.
    init(op: String, storedText text: String) throws {
        let data = Data(text.utf8)
        var result = try WireJSON.decoder().decode(OpResult.self, from: data)
        let marks = try WireJSON.decoder().decode(Marks.self, from: data)
        self.op = op
        carriesItem = result.current != nil || marks.carriesItem == true
        result.current = nil
        self.result = result
        chained = marks.chained == true
        storedText = text
    }

    /// The answer to a replay: the item as it is now when the first answer carried it.
    func replayed(current item: ChangeItem?) -> OpResult {
        var answer = result
        if carriesItem { answer.current = item }
        return answer
    }
}

/// Everything a push writes, decided before anything is written.
struct PushPlan: Sendable {
    /// One result per op, in request order.
    var results: [OpResult]
    /// New idempotency records (applied, conflict and rejected answers; never skipped ones).
    var records: [OpRecord]
    /// The final state of every item the push wrote, in sequence order.
    var writes: [StoredItem]
    /// The user's feed head after the push.
    var head: FeedHead
    var tally: OpTally
}

/// The protocol's write rules as a pure function: `PushDriver` calls `plan` between a store's
/// reads and writes inside its write transaction, so SQLite and PostgreSQL cannot differ.
///
/// Rules (SPEC "Sync protocol"):
/// - an op id seen before answers its first result and changes nothing;
/// - an op whose `baseRev` is the item's revision applies; with another `baseRev` it still
///   applies when every field it changes holds its `from` value, else it is a `conflict`
///   carrying the current item, and later ops of the batch for that item are `skipped`;
/// - a delete with a stale `baseRev` conflicts (edit against delete is for a person to decide);
///   deleting a tombstone again answers `applied` with its revision and writes nothing;
/// - an update (or create) of a tombstone at its revision restores the item; at another
///   revision it conflicts;
/// - an update or delete of an item the user does not have is `rejected`;
/// - every write takes the next sequence number and adds one to the item's revision.
struct PushPlanner {
    let now: Date
    let maxItemBytes: Int
    /// Bytes one user may store (`FeedHead.storedBytes`); 0 for no limit. An op that would
    /// grow the user's rows past it is `rejected` with a reason (the device keeps it as a dead
    /// letter); deletes and changes that shrink an item always apply.
    var quotaBytes: Int64 = 0

    func plan(ops: [Op], head: FeedHead, recorded: [String: OpRecord], items: [String: StoredItem]) -> PushPlan {
        var state = State(head: head, items: items, hash: StateHash(hex: head.stateHash) ?? StateHash())
        var results: [OpResult] = []
        results.reserveCapacity(ops.count)
        var answered = recorded
        var records: [OpRecord] = []
        var conflicted = Set<String>()
        var tally = OpTally()
        /// For each item, the base of this batch's last op for it that applied, and the
        /// revision it made (`rebased`).
        var appliedBase: [String: (rev: Int, version: ServerVersion?, made: Int)] = [:]

        for op in ops {
            if let earlier = answered[op.id] {
                tally.duplicate += 1
                if earlier.result.status == .conflict { conflicted.insert(op.item) }
                if earlier.result.status == .applied {
                    // A replayed op of a chain is still the version the device's next op rests on.
                    appliedBase[op.item] =
                        earlier.chained ? earlier.result.rev.map { (op.baseRev, op.baseVersion, $0) } : nil
                }
                results.append(earlier.replayed(current: state.items[op.item]?.item))
                continue
            }
            if conflicted.contains(op.item) {
                tally.skipped += 1
                results.append(.skipped(op.id))
                continue
            }
            let resting = rebased(op, after: appliedBase, items: state.items)
            // Whether the op applies to exactly the version it was made on (nothing of another
            // device's in between): only then does the next op of the batch rest on its result.
            let exact = state.items[op.item].map { PushPlanner.rests(resting, on: $0.item) } ?? (op.kind == .create)
            var result = evaluate(resting, state: &state)
            if resting.baseRev != op.baseRev, result.status == .applied, result.current == nil {
                // The device's copy of the base is older than the version the op was applied to:
                // it gets the whole item, as for any op applied to a version it has not seen.
                result.current = state.items[op.item]?.item
            }
            switch result.status {
            case .applied:
                tally.applied += 1
                if exact, let made = result.rev {
                    appliedBase[op.item] = (op.baseRev, op.baseVersion, made)
                } else {
                    appliedBase[op.item] = nil
                }
            case .conflict:
                tally.conflicted += 1
                conflicted.insert(op.item)
            case .rejected: tally.rejected += 1
            case .skipped: tally.skipped += 1
            }
            let record = OpRecord(
                op: op.id, answer: result, chained: result.status == .applied && appliedBase[op.item] != nil)
            answered[op.id] = record
            records.append(record)
            results.append(result)
        }

        var newHead = state.head
        newHead.stateHash = state.hash.hex
        newHead.storedBytes += records.reduce(0) { $0 + Int64($1.storedText.utf8.count) }
        let writes = state.written.compactMap { state.items[$0] }.sorted { $0.seq < $1.seq }
        return PushPlan(results: results, records: records, writes: writes, head: newHead, tally: tally)
    }

    /// An op made on the same version as the batch's op just applied exactly to its item (to
    /// the very version it was made on) rests on what that op made: a device's outbox is in the order it made its changes, and a change
    /// queued while an earlier one waited for its answer keeps the earlier base. (Updates would
    /// pass on their `from` values anyway; a delete has none and would conflict with the
    /// device's own change.)
    private func rebased(
        _ op: Op, after applied: [String: (rev: Int, version: ServerVersion?, made: Int)],
        items: [String: StoredItem]
    ) -> Op {
        guard let last = applied[op.item], last.rev == op.baseRev, last.version == op.baseVersion,
            let current = items[op.item]?.item, current.rev == last.made,
            // A create rests only on a tombstone (the device restoring what it just deleted).
            op.kind != .create || current.deleted
        else { return op }
        var op = op
        op.baseRev = current.rev
        op.baseVersion = current.version
        return op
    }

    // MARK: - One op

    /// The working copy of the user's items while a batch is planned.
    private struct State {
        var head: FeedHead
        var items: [String: StoredItem]
        var hash: StateHash
        var written: [String] = []
        var writtenIDs = Set<String>()

        /// Stores a new version of an item under the next sequence number, stamped with that
        /// number in this epoch on top of what it builds on (the old version and, for a re-sent
        /// copy, its `basis`). Returns the version as stored.
        mutating func write(
            _ new: ChangeItem, deletedAt: Int64, replacing old: ChangeItem?, basis: ServerVersion? = nil
        ) -> ChangeItem {
            head.seq += 1
            if let old, !old.deleted { hash.toggle(id: old.id, rev: old.rev) }
            if !new.deleted { hash.toggle(id: new.id, rev: new.rev) }
            if writtenIDs.insert(new.id).inserted { written.append(new.id) }
            var stored = new
            let earlier = old?.version.map { $0.joined(with: basis) } ?? basis
            stored.version = ServerVersion(writtenAt: head.seq, in: head.epoch, after: earlier)
            let row = StoredItem(item: stored, seq: head.seq, deletedAt: deletedAt)
            head.storedBytes += row.docBytes - (items[new.id]?.docBytes ?? 0)
            items[new.id] = row
            return stored
        }
    }

    private func evaluate(_ op: Op, state: inout State) -> OpResult {
        let existing = state.items[op.item]?.item
        let fields = op.fields ?? [:]
        switch op.kind {
        case .create:
            guard let existing else { return create(op, fields: fields, state: &state) }
            if existing.deleted && PushPlanner.rests(op, on: existing) {
                return change(op, fields: fields, of: existing, restoring: true, exact: true, state: &state)
            }
            return .conflict(op.id, current: existing)
        case .update:
            guard let existing else { return .rejected(op.id, reason: "item \(op.item) does not exist") }
            let exact = PushPlanner.rests(op, on: existing)
            if existing.deleted {
                guard exact else { return .conflict(op.id, current: existing) }
                // A tombstone has no content to fill in what an update leaves out: the item
                // comes back only with every field, as devices restore it (a create).
                guard !existing.isContentless else {
                    return .rejected(op.id, reason: "a deleted item is restored with all its fields (a create)")
                }
                return change(op, fields: fields, of: existing, restoring: true, exact: true, state: &state)
            }
            if !exact {
                switch fromValuesHold(fields, in: existing, encrypted: state.head.keyring > 0) {
                case .failure(let reason): return .rejected(op.id, reason: reason)
                case .success(false): return .conflict(op.id, current: existing)
                case .success(true): break
                }
            }
            return change(op, fields: fields, of: existing, restoring: false, exact: exact, state: &state)
        case .delete:
            guard fields.isEmpty else { return .rejected(op.id, reason: "a delete carries no fields") }
            guard let existing else { return .rejected(op.id, reason: "item \(op.item) does not exist") }
            // A tombstone carries no content (SPEC): the devices that had the item keep it in
            // their trash and history; the server, its backups and new devices get none. The
            // answer carries the tombstone, so every copy of it is the same.
            if existing.deleted { return .applied(op.id, item: existing, exact: false) }
            guard PushPlanner.rests(op, on: existing) else { return .conflict(op.id, current: existing) }
            var tombstone = existing.tombstone
            tombstone.rev += 1
            tombstone.updatedAt = now
            let stored = state.write(
                tombstone, deletedAt: Int64(now.timeIntervalSince1970), replacing: existing, basis: op.basis)
            return .applied(op.id, item: stored, exact: false)
        }
    }

    /// True when the op was made against exactly the version the server holds: the same
    /// `ServerVersion` when the op names one, else (an older client) the same revision.
    static func rests(_ op: Op, on existing: ChangeItem) -> Bool {
        guard let base = op.baseVersion else { return op.baseRev == existing.rev }
        return base == existing.version && op.baseRev == existing.rev
    }

    private func create(_ op: Op, fields: [Field: FieldChange], state: inout State) -> OpResult {
        guard fields[.title] != nil else { return .rejected(op.id, reason: "a new item needs a title") }
        let createdAt = UUIDv7Generator.creationTime(ofID: op.item) ?? now
        let blank = ChangeItem(id: op.item, rev: 0, title: "", createdAt: createdAt, updatedAt: now)
        switch applying(fields, to: blank, encrypted: state.head.keyring > 0) {
        case .failure(let reason): return .rejected(op.id, reason: reason)
        case .success(var item):
            if let refusal = quotaRefusal(writing: item, over: nil, storedBytes: state.head.storedBytes) {
                return .rejected(op.id, reason: refusal)
            }
            item.rev = 1
            let stored = state.write(item, deletedAt: 0, replacing: nil, basis: op.basis)
            return .applied(op.id, item: stored, exact: true, created: true)
        }
    }

    private func change(
        _ op: Op, fields: [Field: FieldChange], of existing: ChangeItem, restoring: Bool, exact: Bool,
        state: inout State
    ) -> OpResult {
        switch applying(fields, to: existing, encrypted: state.head.keyring > 0) {
        case .failure(let reason): return .rejected(op.id, reason: reason)
        case .success(var item):
            if let refusal = quotaRefusal(writing: item, over: existing, storedBytes: state.head.storedBytes) {
                return .rejected(op.id, reason: refusal)
            }
            if restoring { item.deleted = false }
            item.rev = existing.rev + 1
            item.updatedAt = now
            let stored = state.write(item, deletedAt: 0, replacing: existing, basis: op.basis)
            return .applied(op.id, item: stored, exact: exact)
        }
    }

    // MARK: - Field rules

    /// The item with every field's `to` value set, checked by the domain's validation and
    /// the item size limit; a reason for the person when it cannot be. An encrypted account's
    /// values are sealed and are only checked for shape and size (`applyingSealed`).
    private func applying(_ fields: [Field: FieldChange], to item: ChangeItem, encrypted: Bool)
        -> Result<ChangeItem, ReasonError>
    {
        if encrypted { return applyingSealed(fields, to: item) }
        // The stored `doneAt` stays unless `done` changes (then it is the server's time).
        var domain = item.item(syncState: .synced, doneAt: nil)
        do {
            domain = try domain.applying(fields.mapValues(\.to), now: now)
        } catch {
            return .failure(ReasonError(error.description))
        }
        var result = ChangeItem(domain)
        result.createdAt = item.createdAt
        let size = PushPlanner.size(of: result)
        guard size <= maxItemBytes else {
            return .failure(ReasonError("the item would be \(size) bytes; the limit is \(maxItemBytes) bytes"))
        }
        return .success(result)
    }

    /// The item with every field's sealed value set. A plain item (stored before the account was
    /// encrypted) becomes sealed only as a whole, so no item is ever half plaintext: the op must
    /// seal every field. `done` is sealed, so the server keeps `doneAt` as it was unless the op
    /// changes the field (it cannot tell to what: the time marks the change).
    private func applyingSealed(_ fields: [Field: FieldChange], to item: ChangeItem) -> Result<ChangeItem, ReasonError>
    {
        var result = item
        var sealed = item.sealed ?? [:]
        if item.sealed == nil, item.rev > 0, fields.count < Field.allCases.count {
            return .failure(
                ReasonError("this item is stored in plain text: seal every one of its fields to encrypt it"))
        }
        for (field, change) in fields {
            guard case .sealed(let value) = change.to, value.isWellFormed else {
                return .failure(ReasonError("this account is encrypted: every value must be sealed"))
            }
            sealed[field] = value
        }
        if fields[.done] != nil { result.doneAt = now }
        // The plain fields keep their defaults: a sealed item's document carries none of them.
        result = ChangeItem(
            id: item.id, rev: item.rev, deleted: item.deleted, title: "", createdAt: item.createdAt,
            updatedAt: item.updatedAt, doneAt: result.doneAt, version: item.version, sealed: sealed)
        let size = PushPlanner.size(of: result)
        guard size <= maxItemBytes * 2 else {
            return .failure(
                ReasonError("the sealed item would be \(size) bytes; the limit is \(maxItemBytes * 2) bytes"))
        }
        return .success(result)
    }

    /// Bytes a new row's document takes beyond its content (ids, times, version, keys): what
    /// a create adds besides the content when the quota is checked.
    static let rowOverheadBytes: Int64 = 320

    /// Why the user's storage quota refuses writing `new` over `old` (nil for a new item), or
    /// nil when it fits. The growth is judged by content bytes (the stored count, exact, is
    /// kept by `State.write`), so a batch cannot pass the quota by more than its JSON escaping.
    private func quotaRefusal(writing new: ChangeItem, over old: ChangeItem?, storedBytes: Int64) -> ReasonError? {
        guard quotaBytes > 0 else { return nil }
        let before = old.map { Int64(PushPlanner.size(of: $0)) } ?? -PushPlanner.rowOverheadBytes
        let growth = Int64(PushPlanner.size(of: new)) - before
        guard growth > 0, storedBytes + growth > quotaBytes else { return nil }
        return ReasonError(
            "this account's storage is full (\(ByteCount.text(storedBytes)) used of \(ByteCount.text(quotaBytes))): "
                + "delete or shorten items (deleted items free their space when the server purges them), "
                + "or ask the server's operator for a larger --user-quota")
    }

    /// True when every changed field still holds the value the op changed it from. In an
    /// encrypted account the op names each value by its MAC, which the stored sealed value
    /// carries; a plain item (not yet sealed) holds no MAC, so the op conflicts: plain items are
    /// sealed whole by `quire encryption enable` (`EncryptionConversion`), against their exact
    /// version.
    private func fromValuesHold(_ fields: [Field: FieldChange], in item: ChangeItem, encrypted: Bool)
        -> Result<Bool, ReasonError>
    {
        if encrypted {
            for (field, change) in fields {
                guard case .mac(let mac) = change.from else {
                    return .failure(ReasonError("this account is encrypted: every from value must be a MAC"))
                }
                if item.sealed?[field]?.mac != mac { return .success(false) }
            }
            return .success(true)
        }
        var holds = true
        for (field, change) in fields {
            switch (field, change.from) {
            case (.body, .sha256(let hex)):
                if ContentHash.sha256Hex(item.body) != hex.lowercased() { holds = false }
            case (_, .sha256):
                return .failure(ReasonError("only the body's from value may be given as a sha256"))
            case (_, .mac), (_, .sealed):
                return .failure(ReasonError("this account is not encrypted: send plain values"))
            case (.tags, .strings(let list)):
                if Tags.normalize(list) != item.tags { holds = false }
            case (.tags, .null):
                if !item.tags.isEmpty { holds = false }
            case (.attachments, .strings(let list)):
                // A set, as tags: the order a device wrote it in does not matter.
                if (try? Attachments.parse(list)) != item.attachments { holds = false }
            case (.attachments, .null):
                if !item.attachments.isEmpty { holds = false }
            default:
                if item.value(of: field) != change.from { holds = false }
            }
        }
        return .success(holds)
    }

    /// UTF-8 bytes of the title, body and tags: what the item size limit counts. A sealed
    /// item's are the bytes of its sealed values.
    static func size(of item: ChangeItem) -> Int {
        if let sealed = item.sealed { return sealed.values.reduce(0) { $0 + $1.text.utf8.count } }
        return item.title.utf8.count + item.body.utf8.count + item.tags.reduce(0) { $0 + $1.utf8.count }
    }
}

/// A one-line reason for a rejected op.
struct ReasonError: Error, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

extension OpResult {
    fileprivate static func rejected(_ op: String, reason: ReasonError) -> OpResult {
        .rejected(op, reason: reason.text)
    }
}
