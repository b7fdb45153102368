import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol

/// One store's side of a push: the SQL of its reads and writes, and no decisions.
///
/// Both calls run in the one write transaction of the push (a push is one transaction, see
/// `SyncStore`), `read` first. The decisions between them are `PushDriver`'s, so SQLite and
/// PostgreSQL answer a push alike and a change to what a push does is made once.
protocol PushTransaction {
    /// Takes the user's write lock, then reads the user's feed head, the idempotency records of
    /// `request.opIDs` and the stored items of `request.itemIDs` (those that exist). Throws
    /// `ResyncRequired` when the user no longer exists.
    func read(_ request: PushRead) async throws -> PushReads
    /// Writes what the driver decided: every item row, every record, the head when it moved.
    func write(_ writes: PushWrites) async throws
}

/// What a push reads: every op id and item id its ops name, each once, in request order.
struct PushRead: Sendable, Hashable {
    var opIDs: [String]
    var itemIDs: [String]
}

/// What a store read for a push, under the user's write lock.
struct PushReads: Sendable {
    var head: FeedHead
    /// The earlier answers to op ids of the push, by op id.
    var recorded: [String: OpRecord]
    /// The stored rows of the push's items, by item id.
    var items: [String: StoredItem]
}

/// What a push writes, all decided before the store writes any of it.
struct PushWrites: Sendable {
    /// The new row of every item the push wrote, in sequence order.
    var items: [StoredItem]
    /// The device stored as the writer of every row in `items`.
    var device: String
    /// The new idempotency records.
    var records: [OpRecord]
    /// When the records were made (Unix seconds): the purge removes them by age.
    var recordedAt: Int64
    /// The user's new feed head; nil when the push left it as it was.
    var head: FeedHead?
    /// An encrypted account's push that replaced a version the server could read (an item
    /// sealed as its account is converted): the store then clears what its files keep of old
    /// versions (`SQLiteStore.forgetOldVersions`).
    var replacesReadableText = false
}

/// The one orchestration of a push, for every store: what to read, whether the cursor can
/// continue the feed, the plan (`PushPlanner`), and what to write.
///
/// A store runs it as `read`, `decide`, `write` inside its write transaction. The steps are
/// not one generic function over `PushTransaction`: SQLite's transaction (a GRDB write block)
/// cannot span a suspension, and PostgreSQL's client only suspends.
struct PushDriver: Sendable {
    let device: String
    let ops: [Op]
    let cursor: FeedCursor?
    let planner: PushPlanner

    /// The ids the store reads.
    var request: PushRead {
        var opIDs = Set<String>()
        var itemIDs = Set<String>()
        return PushRead(
            opIDs: ops.map(\.id).filter { opIDs.insert($0).inserted },
            itemIDs: ops.map(\.item).filter { itemIDs.insert($0).inserted })
    }

    /// The push's plan and what to write for it; throws `ResyncRequired` (and nothing is
    /// written) when `cursor` cannot continue the feed the store read.
    func decide(_ reads: PushReads) throws -> (plan: PushPlan, writes: PushWrites) {
        if let cursor, let reason = cursor.resyncReason(head: reads.head) { throw ResyncRequired(reason: reason) }
        if reads.head.keyring > 0, ops.contains(where: \.carriesPlainValues) { throw APIError.encryptionRequired }
        if reads.head.keyring == 0, ops.contains(where: \.carriesSealedValues) { throw APIError.keyringMissing }
        if ops.contains(where: { $0.seals(underKeyOlderThan: reads.head.keyringKey) }) {
            throw APIError.sealedUnderOldKey(ring: reads.head.keyring, currentKey: reads.head.keyringKey)
        }
        let plan = planner.plan(ops: ops, head: reads.head, recorded: reads.recorded, items: reads.items)
        var writes = PushWrites(
            items: plan.writes, device: device, records: plan.records,
            recordedAt: Int64(planner.now.timeIntervalSince1970), head: plan.head == reads.head ? nil : plan.head)
        writes.replacesReadableText =
            reads.head.keyring > 0
            && plan.writes.contains { written in
                reads.items[written.item.id].map { !$0.item.isSealed && !$0.item.isContentless } ?? false
            }
        return (plan, writes)
    }
}

extension Op {
    /// Whether the op carries a sealed value or a MAC: what only an encrypted account takes.
    var carriesSealedValues: Bool {
        (fields ?? [:]).values.contains { change in
            if case .sealed = change.to { return true }
            if case .mac = change.from { return true }
            return false
        }
    }

    /// Whether a value the op sets is sealed (or MACed) under a data key older than `current`,
    /// the one the account's ring names current: what a device that missed a rotation writes.
    /// Such a push is refused as a whole, so nothing new lands under a key a lost device may
    /// hold. Only `to` values count: a `from` MAC names the version the device saw, which may
    /// be sealed under any key. A key newer than the ring's is taken: the ring lost it with a
    /// restore from an older backup, and the devices holding it put it back (`KeyLearning`).
    func seals(underKeyOlderThan current: Int) -> Bool {
        (fields ?? [:]).values.contains { change in
            guard case .sealed(let value) = change.to else { return false }
            return [value.text, value.mac].contains { text in
                FieldCipher.keyID(of: text).map { Int($0) < current } ?? false
            }
        }
    }

    /// Whether the op carries a value the server could read: a plain `to` or `from` value. A
    /// delete carries none. Such an op is refused as a whole for an encrypted account, before
    /// anything of the push is written, so a device without the keys learns it must unlock.
    var carriesPlainValues: Bool {
        (fields ?? [:]).values.contains { change in
            guard case .sealed = change.to, case .mac = change.from else { return true }
            return false
        }
    }
}
