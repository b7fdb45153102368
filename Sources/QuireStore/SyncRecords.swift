import Foundation
import QuireCore

/// Where this device stands with the server (the `syncMeta` row).
public struct SyncMeta: Sendable, Hashable {
    /// This store's device id, made once when the database was created.
    public var deviceID: String
    /// The pull cursor the server returned last; nil before the first pull.
    public var cursor: String?
    /// The server epoch seen last; a different one means the server lost or restored data.
    public var epoch: String?
    /// The server's state hash at `cursor`, as seen last.
    public var stateHash: String?
    /// When a sync round last finished without error.
    public var lastSuccessAt: Date?
}

/// An item that needs review: the last version both sides agreed on, this device's version,
/// the server's version and the fields both changed differently.
public struct ConflictRecord: Sendable, Hashable {
    public var itemID: String
    public var base: Item?
    public var local: Item
    public var remote: Item
    public var fields: [Field]
    public var detectedAt: Date

    public init(itemID: String, base: Item?, local: Item, remote: Item, fields: [Field], detectedAt: Date) {
        self.itemID = itemID
        self.base = base
        self.local = local
        self.remote = remote
        self.fields = fields
        self.detectedAt = detectedAt
    }
}

/// One line of the sync event log.
public struct SyncEvent: Sendable, Hashable {
    public var seq: Int64
    public var at: Date
    /// A short machine-readable name (`push`, `pull`, `conflict`, `merged`, `error`, ...).
    public var kind: String
    /// One line for people.
    public var message: String
    public var itemID: String?
    public var opID: String?

    public init(seq: Int64 = 0, at: Date, kind: String, message: String, itemID: String? = nil, opID: String? = nil) {
        self.seq = seq
        self.at = at
        self.kind = kind
        self.message = message
        self.itemID = itemID
        self.opID = opID
    }
}
