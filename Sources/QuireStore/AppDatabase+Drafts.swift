import Foundation
import GRDB
import QuireCore

/// Text typed in the app's editor and not saved yet, kept so that a closed terminal, a killed
/// process or a dropped ssh session loses nothing. Not an op: it never travels to the server.
public struct Draft: Hashable, Sendable {
    /// The item being edited; nil for a new item.
    public var itemID: String?
    public var kind: ItemKind
    public var title: String
    public var body: String
    /// The title and body the editor opened with (to tell what changed).
    public var originalTitle: String
    public var originalBody: String
    /// The details line (`DetailsLine`) as typed, and as the editor opened with it.
    public var details: String
    public var originalDetails: String
    public var savedAt: Date

    public init(
        itemID: String?, kind: ItemKind, title: String, body: String, originalTitle: String = "",
        originalBody: String = "", details: String = "", originalDetails: String = "",
        savedAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.itemID = itemID
        self.kind = kind
        self.title = title
        self.body = body
        self.originalTitle = originalTitle
        self.originalBody = originalBody
        self.details = details
        self.originalDetails = originalDetails
        self.savedAt = savedAt
    }

    /// One draft per item, and one for a new item: the row's key.
    var key: String { itemID ?? "new" }
}

// MARK: - Drafts

extension AppDatabase {
    /// Keeps `draft`, replacing the one of the same item (or the new-item draft).
    public func saveDraft(_ draft: Draft) throws(StoreError) {
        try write { db in
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO draft
                      (key, itemId, kind, title, body, originalTitle, originalBody, savedAt, details, originalDetails)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                draft.key, draft.itemID, draft.kind.rawValue, draft.title, draft.body, draft.originalTitle,
                draft.originalBody, StoreTime.string(from: self.now()), draft.details, draft.originalDetails,
            ])
        }
    }

    /// Forgets the draft of an item (nil: of a new item), once it is saved or discarded.
    public func removeDraft(itemID: String?) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM draft WHERE key = ?", arguments: [itemID ?? "new"])
        }
    }

    /// Every draft kept, oldest first.
    public func drafts() throws(StoreError) -> [Draft] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT itemId, kind, title, body, originalTitle, originalBody, savedAt, details, originalDetails
                    FROM draft
                    ORDER BY savedAt, key
                    """
            ).map { row in
                let kind: String = row[1]
                let saved: String = row[6]
                return Draft(
                    itemID: row[0], kind: ItemKind(rawValue: kind) ?? .note, title: row[2], body: row[3],
                    originalTitle: row[4], originalBody: row[5], details: row[7], originalDetails: row[8],
                    savedAt: StoreTime.date(from: saved) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }
}
