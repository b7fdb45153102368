import Foundation
import QuireProtocol

/// A key ring as a store keeps it: the ring's JSON, which the server never opens, and its
/// version.
struct StoredKeyRing: Sendable, Hashable {
    var version: Int
    var json: String
}

/// A key ring a device stores: its JSON and the data key it names current, which the store
/// keeps beside the ring's version (`FeedHead.keyringKey`) so a push is checked against it
/// without reading the ring.
struct KeyRingWrite: Sendable, Hashable {
    var json: String
    var currentKey: UInt32
}

/// A key ring write that named another version than the stored one.
struct KeyRingVersionConflict: Error, Sendable {
    let current: Int
}

/// What a store does when an account's first key ring is stored, in the same transaction: the
/// account is encrypted from that moment, so nothing the server holds may stay readable but
/// the live items, which the encrypting device re-uploads sealed at once (the server refuses
/// plain writes from now on, and a plain item becomes sealed only as a whole).
///
/// - Tombstones lose their content (SPEC: tombstones carry no content): a device that had the
///   item keeps it in its own trash and history; the server cannot seal what it cannot read.
///   Their revision stays, so no device pulls them again.
/// - The remembered answers to earlier ops go: they hold copies of items in plain text. A
///   device that re-sends such an op is refused as plain anyway, and seals it again.
/// - Attached files' chunks and manifests go: they are a plain account's bytes. The devices
///   that hold the files give each a key and upload it again, sealed.
enum KeyRingSealing {
    /// The tables of an account's attached files, emptied for it.
    static let fileTables = ["file_claims", "file_chunks", "files", "chunks"]

    /// The statement that fills in the current key of every ring stored before the stores kept
    /// it, `currentKey` read from the ring's JSON by the store's own SQL (`extract`).
    static func currentKeyBackfill(reading extract: String) -> String {
        "UPDATE users SET keyring_key = COALESCE(\(extract), 0) WHERE keyring IS NOT NULL"
    }

    /// The tombstone's document with its content dropped: id, revision, times and version stay.
    static func contentless(_ doc: String) throws -> String {
        try StoredItem(doc: doc, seq: 0, deletedAt: 0).item.tombstone.compactJSON()
    }
}
