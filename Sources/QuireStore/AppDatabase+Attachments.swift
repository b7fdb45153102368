import Foundation
import GRDB
import QuireCore

// MARK: - Attachments

/// Files attached to items (SPEC "Notes, tasks, links and attachments").
///
/// The references are an ordinary field of the item (`Field.attachments`): attaching and
/// detaching are edits, with their op, history version and undo. The bytes live in the
/// attachment store beside the database (`attachmentStore`), shared by every reference to the
/// same content. What the device knows of each file's upload lives in `attachmentTransfer`,
/// which never syncs.
extension AppDatabase {
    /// `<data>/attachments`, beside the database file.
    public var attachmentStore: AttachmentStore {
        AttachmentStore(directory: (path as NSString).deletingLastPathComponent + "/attachments")
    }

    /// Adds files to an item's attachments (by full id); a file with the name of one already
    /// attached replaces it. The bytes must be in the attachment store already.
    @discardableResult
    public func attach(_ files: [AttachedFile], to id: String) throws(StoreError) -> Item {
        try update(id) { item in
            let names = Set(files.map(\.name))
            let kept = item.attachments.filter { !names.contains($0.name) }
            return [.attachments: Attachments.value(Attachments.normalize(kept + files))]
        }
    }

    /// Removes the attachments with this name from an item (by full id). The bytes stay while
    /// the item's history refers to them, so `quire undo` can bring the file back.
    @discardableResult
    public func detach(named name: String, from id: String) throws(StoreError) -> Item {
        try update(id) { item in
            [.attachments: Attachments.value(item.attachments.filter { $0.name != name })]
        }
    }

    /// Gives the key `wrappedKey` to every live reference to the content `hash` that has none:
    /// files of an encrypted account attached before this device held its keys (or before
    /// encryption was turned on), which travel only once keyed. Each item changes by an
    /// ordinary edit made from the item as it is, so a reference added meanwhile is kept.
    /// Returns how many items changed.
    @discardableResult
    public func keyAttachments(of hash: String, wrappedKey: String) throws(StoreError) -> Int {
        let ids = try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM item INDEXED BY item_with_attachments
                    WHERE attachments IS NOT NULL AND deleted = 0 AND instr(attachments, ?) > 0
                    """, arguments: [hash])
        }
        var changed = 0
        for id in ids {
            var keyed = false
            try update(id) { item in
                let files = item.attachments.map { file in
                    guard file.hash == hash, file.wrappedKey == nil else { return file }
                    keyed = true
                    var copy = file
                    copy.wrappedKey = wrappedKey
                    return copy
                }
                return keyed ? [.attachments: Attachments.value(Attachments.normalize(files))] : [:]
            }
            if keyed { changed += 1 }
        }
        return changed
    }

    /// Every hash an item, a tombstone in the trash or a version in an item's history refers
    /// to: the files the store must keep.
    public func referencedAttachmentHashes() throws(StoreError) -> Set<String> {
        try read { db in
            var hashes = Set<String>()
            for sql in [
                "SELECT attachments FROM item WHERE attachments IS NOT NULL",
                "SELECT DISTINCT attachments FROM itemVersion WHERE attachments IS NOT NULL",
            ] {
                for text in try String.fetchAll(db, sql: sql) {
                    for reference in JSONText.parseStrings(text) ?? [] {
                        if let file = AttachedFile(wireText: reference) { hashes.insert(file.hash) }
                    }
                }
            }
            return hashes
        }
    }

    /// Removes the stored files and transfer records nothing refers to any more (after a purge);
    /// returns how many files went.
    @discardableResult
    public func collectAttachments() throws(StoreError) -> Int {
        let referenced = try referencedAttachmentHashes()
        let removed = attachmentStore.remove(allBut: referenced)
        try write { db in
            for hash in try String.fetchAll(db, sql: "SELECT hash FROM attachmentTransfer")
            where !referenced.contains(hash) {
                try db.execute(sql: "DELETE FROM attachmentTransfer WHERE hash = ?", arguments: [hash])
            }
        }
        return removed
    }

    /// The files live items refer to (not deleted ones, nor history), each content once: what
    /// sync uploads and downloads.
    public func liveAttachments() throws(StoreError) -> [AttachedFile] {
        try liveAttachmentReferences().map(\.file)
    }

    /// Each file live items refer to, once per content, with the ids of those items (in list
    /// order): the items that must claim it on the server.
    public func liveAttachmentReferences() throws(StoreError) -> [AttachmentReference] {
        try read { db in
            var index: [String: Int] = [:]
            var references: [AttachmentReference] = []
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, attachments FROM item INDEXED BY item_with_attachments
                    WHERE attachments IS NOT NULL AND deleted = 0 ORDER BY rowNumber
                    """)
            for row in rows {
                let id: String = row[0]
                for reference in JSONText.parseStrings(row[1]) ?? [] {
                    guard let file = AttachedFile(wireText: reference) else { continue }
                    if let known = index[file.hash] {
                        if references[known].items.last != id { references[known].items.append(id) }
                    } else {
                        index[file.hash] = references.count
                        references.append(AttachmentReference(file: file, items: [id]))
                    }
                }
            }
            return references
        }
    }

    // MARK: - Claims

    /// How long a claim counts before the device makes it again. Renewing heals what no rule
    /// here foresees: an item brought back to the server after its file was purged (an edit
    /// pushed after a long absence wins over another device's delete) is claimed within a week,
    /// and its file sent again by a device that holds it. Two small requests per file a week.
    public static let claimRenewal: TimeInterval = 7 * 86_400

    /// The claims this device made that still count: in the server epoch it last synced with,
    /// within `claimRenewal`, for items not deleted since (`attachmentClaim`).
    public func attachmentClaims() throws(StoreError) -> Set<AttachmentClaim> {
        let since = now().timeIntervalSince1970 - Self.claimRenewal
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT item, hash, address FROM attachmentClaim
                    WHERE epoch IS (SELECT epoch FROM syncMeta WHERE id = 1) AND claimedAt > ?
                    """, arguments: [since])
            return Set(rows.map { AttachmentClaim(item: $0[0], hash: $0[1], address: $0[2]) })
        }
    }

    /// Records that the server holds the claims of `items` on the file `hash` at `address`,
    /// in the server epoch this device last synced with.
    public func recordClaims(of items: [String], on hash: String, at address: String) throws(StoreError) {
        let claimedAt = now().timeIntervalSince1970
        try write(.replayable) { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO attachmentClaim (item, hash, address, epoch, claimedAt)
                    SELECT ?, ?, ?, (SELECT epoch FROM syncMeta WHERE id = 1), ?
                    WHERE EXISTS (SELECT 1 FROM item WHERE id = ? AND deleted = 0)
                    """)
            for item in items { try statement.execute(arguments: [item, hash, address, claimedAt, item]) }
        }
    }

    // MARK: - Transfer state

    /// Where each of `files` stands on this device (see `AttachmentState`).
    public func attachmentStates(of files: [AttachedFile]) throws(StoreError) -> [AttachmentState] {
        let transfers = try attachmentTransfers()
        let store = attachmentStore
        return files.map { file in
            let transfer = transfers[file.hash]
            if case .refused(let reason)? = transfer { return .refused(reason: reason) }
            guard store.contains(file.hash) else {
                // A download keeps what it brought in a partial file: its size is the progress.
                let brought = store.partialSize(of: file.hash)
                return brought > 0
                    ? .downloading(percent: AttachmentState.percent(brought, of: file.size)) : .waitingToDownload
            }
            switch transfer {
            case .uploaded?: return .here
            case .uploading(let sent)?:
                return .uploading(percent: AttachmentState.percent(sent, of: file.size))
            case .refused?, nil: return .waitingToUpload
            }
        }
    }

    /// What this device recorded of each file's upload, by hash. A file the server confirmed in
    /// an earlier epoch than the one this device last synced with is `uploading` from its first
    /// byte again: a server restored from a backup may have lost it, so the upload asks what
    /// it lacks and sends that (nothing, if it kept the file).
    public func attachmentTransfers() throws(StoreError) -> [String: AttachmentTransfer] {
        try read { db in
            var result: [String: AttachmentTransfer] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT hash, state, sentBytes, reason, epoch IS (SELECT epoch FROM syncMeta WHERE id = 1)
                    FROM attachmentTransfer
                    """)
            for row in rows {
                let hash: String = row[0]
                let state: String = row[1]
                let confirmedInThisEpoch: Bool = row[4]
                switch state {
                case "uploaded" where !confirmedInThisEpoch: result[hash] = .uploading(sentBytes: 0)
                case "uploaded": result[hash] = .uploaded
                case "refused": result[hash] = .refused(reason: row[3] ?? "refused by the server")
                default: result[hash] = .uploading(sentBytes: row[2])
                }
            }
            return result
        }
    }

    /// Records an upload's progress, its end, or the server's refusal, in the server epoch this
    /// device last synced with.
    public func recordTransfer(_ transfer: AttachmentTransfer, of hash: String) throws(StoreError) {
        try write(.replayable) { db in
            let (state, sent, reason): (String, Int64, String?) =
                switch transfer {
                case .uploading(let sent): ("uploading", sent, nil)
                case .uploaded: ("uploaded", 0, nil)
                case .refused(let reason): ("refused", 0, reason)
                }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO attachmentTransfer (hash, state, sentBytes, reason, epoch)
                    VALUES (?, ?, ?, ?, (SELECT epoch FROM syncMeta WHERE id = 1))
                    """,
                arguments: [hash, state, sent, reason])
        }
    }
}

/// What a device knows of one file's upload.
public enum AttachmentTransfer: Hashable, Sendable {
    /// Started; this many bytes confirmed on the server.
    case uploading(sentBytes: Int64)
    /// The server holds the whole file (its manifest is committed), as far as this device knows
    /// in the server epoch it syncs with.
    case uploaded
    /// The server refused it, with its reason; never retried.
    case refused(reason: String)
}

/// A file live items refer to, and those items' ids.
public struct AttachmentReference: Hashable, Sendable {
    public var file: AttachedFile
    public var items: [String]
}

/// An item's claim on a file, as this device made it: the file's content hash and the address
/// the server knows it by (an encrypted account's is keyed, so a new key needs a new claim).
public struct AttachmentClaim: Hashable, Sendable {
    public var item: String
    public var hash: String
    public var address: String

    public init(item: String, hash: String, address: String) {
        (self.item, self.hash, self.address) = (item, hash, address)
    }
}
