import GRDB
import QuireCore

// MARK: - Short ids

extension AppDatabase {
    /// The short id of each of `ids` (see `ShortID`): what human listings print and people type.
    /// An id the store does not hold maps to its first 8 characters.
    public func shortIDs(for ids: [String]) throws(StoreError) -> [String: String] {
        try read { db in
            let statement = try db.cachedStatement(sql: "SELECT code FROM itemCode WHERE itemId = ?")
            var result: [String: String] = [:]
            for id in ids {
                result[id] = try String.fetchOne(statement, arguments: [id]) ?? String(id.prefix(8))
            }
            return result
        }
    }

    /// The item whose short id is `text`; nil when there is none, or when `text` has a hyphen
    /// (then it can only be a full id or a prefix of one).
    static func itemID(shortID text: String, in db: Database) throws -> String? {
        let code = text.lowercased()
        guard !code.contains("-") else { return nil }
        return try String.fetchOne(
            db.cachedStatement(sql: "SELECT itemId FROM itemCode WHERE code = ?"), arguments: [code])
    }

    /// Gives every item that has none its short id: the first of `ShortID.candidates` that no
    /// other item holds. Runs inside every write transaction, so that what is committed always
    /// has one; the pending rows are found through a partial index, so this costs nothing when
    /// no item arrived.
    static func assignShortIDs(in db: Database) throws {
        let pending = try db.cachedStatement(
            sql: "SELECT itemId FROM itemCode WHERE code IS NULL AND itemId > ? ORDER BY itemId LIMIT \(shortIDPage)")
        // A code another item holds breaks the UNIQUE constraint and changes nothing: one
        // statement tries a candidate, instead of a lookup and then a write.
        let assign = try db.cachedStatement(sql: "UPDATE OR IGNORE itemCode SET code = ? WHERE itemId = ?")
        // A page at a time: an import of a million items must not hold a million ids.
        var after = ""
        while true {
            let ids = try String.fetchAll(pending, arguments: [after])
            after = ids.last ?? after
            for id in ids {
                for code in ShortID.candidates(for: id) {
                    try assign.execute(arguments: [code, id])
                    if db.changesCount > 0 { break }
                }
            }
            if ids.count < shortIDPage { return }
        }
    }

    /// How many items `assignShortIDs` reads at a time.
    static let shortIDPage = 1000
}
