import Foundation
import QuireProtocol

/// An item row as both stores keep it: the wire item plus the server's bookkeeping.
///
/// `doc` is the item's wire JSON, written once per write, so pulls and snapshots copy it into
/// answers without decoding and encoding every item again.
struct StoredItem: Sendable, Hashable {
    let item: ChangeItem
    /// The per-user sequence number of the item's latest write.
    var seq: Int64
    /// Unix seconds when the item became a tombstone; 0 while it is live.
    var deletedAt: Int64

    /// The wire JSON of `item`, as the row keeps it: encoded once, when the version is
    /// written, so the push can count the bytes it stores before the store writes them.
    let doc: String

    /// The bytes the row's document takes, what the user's storage quota counts.
    var docBytes: Int64 { Int64(doc.utf8.count) }

    /// Rebuilds a row read from a store.
    init(doc: String, seq: Int64, deletedAt: Int64) throws {
        self.item = try WireJSON.decoder().decode(ChangeItem.self, from: Data(doc.utf8))
        self.doc = doc
        self.seq = seq
        self.deletedAt = deletedAt
    }

    init(item: ChangeItem, seq: Int64, deletedAt: Int64) {
        self.item = item
        self.doc = item.compactJSON()
        self.seq = seq
        self.deletedAt = deletedAt
    }
}

/// The user's feed bookkeeping, read or written under the user's row lock.
struct FeedHead: Sendable, Hashable {
    /// The last sequence number allocated to this user's writes.
    var seq: Int64
    /// `StateHash` of the user's live items at `seq`.
    var stateHash: String
    /// The highest sequence number of a purged tombstone: cursors below it must resync.
    var horizon: Int64
    /// The database's epoch.
    var epoch: String
    /// Bytes the user's rows take: every item document (tombstones too, until purged) and
    /// every remembered answer. Counted against the user's storage quota.
    var storedBytes: Int64 = 0
    /// The version of the user's key ring; 0 while the account is not encrypted. From the first
    /// key ring on, the server refuses plain values for the account (SPEC: End-to-end encryption).
    var keyring: Int = 0
    /// The data key the account's ring names current (0 without a ring): a push whose values
    /// are sealed under an older one is refused (`PushDriver.decide`).
    var keyringKey: Int = 0
}

/// JSON coders configured for the wire, made fresh per use (they are cheap and not shared).
enum WireJSON {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }
}
