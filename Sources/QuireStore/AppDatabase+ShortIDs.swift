import GRDB
import QuireCore

// MARK: - Short ids

extension AppDatabase {
    /// The short id of each of `ids` (see `ShortID`): what human listings print and people type.
    /// An id the store does not hold maps to its first 8 characters.
    public func shortIDs(for ids: [String]) throws(StoreError) -> [String: String] {
        try read { db in
            let statement = try db.cachedStatement(
                sql:
                    "SELECT itemCode.code FROM item JOIN itemCode ON itemCode.rowNumber = item.rowNumber WHERE item.id = ?"
            )
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
            db.cachedStatement(
                sql:
                    "SELECT item.id FROM itemCode JOIN item ON item.rowNumber = itemCode.rowNumber WHERE itemCode.code = ?"
            ),
            arguments: [code])
    }

    /// Gives every item that has none its short id: the first of `ShortID.candidates` that no
    /// other item holds. Runs inside every write transaction, so that what is committed always
    /// has one; the pending rows are found through a partial index, so this costs nothing when
    /// no item arrived.
    static func assignShortIDs(in db: Database) throws {
        try assignCodes(
            pending: db.cachedStatement(
                sql: """
                    SELECT itemCode.rowNumber, item.id FROM itemCode JOIN item ON item.rowNumber = itemCode.rowNumber
                    WHERE itemCode.code IS NULL AND itemCode.rowNumber > ? ORDER BY itemCode.rowNumber LIMIT \(shortIDPage)
                    """),
            assign: db.cachedStatement(sql: "UPDATE OR IGNORE itemCode SET code = ? WHERE rowNumber = ?"),
            after: 0, in: db)
    }

    /// `assignShortIDs` for the table as migration v3 made it, keyed by item id: frozen with
    /// that migration, which gives the items of an older store their codes.
    static func assignShortIDsKeyedByItemID(in db: Database) throws {
        try assignCodes(
            pending: db.makeStatement(
                sql: """
                    SELECT itemId, itemId FROM itemCode WHERE code IS NULL AND itemId > ? ORDER BY itemId \
                    LIMIT \(shortIDPage)
                    """),
            assign: db.makeStatement(sql: "UPDATE OR IGNORE itemCode SET code = ? WHERE itemId = ?"),
            after: "", in: db)
    }

    /// Reads the rows waiting for a code, `pending` answering each one's key and item id after a
    /// key, and gives each the first free candidate through `assign` (code, key).
    private static func assignCodes(
        pending: Statement, assign: Statement, after start: some DatabaseValueConvertible, in db: Database
    ) throws {
        // A code another item holds breaks the UNIQUE constraint and changes nothing: one
        // statement tries a candidate, instead of a lookup and then a write.
        // A page at a time: an import of a million items must not hold a million ids.
        var after = start.databaseValue
        while true {
            let rows = try Row.fetchAll(pending, arguments: [after])
            for row in rows {
                let key: DatabaseValue = row[0]
                let id: String = row[1]
                after = key
                for code in ShortID.candidates(for: id) {
                    try assign.execute(arguments: [code, key])
                    if db.changesCount > 0 { break }
                }
            }
            if rows.count < shortIDPage { return }
        }
    }

    /// How many items `assignShortIDs` reads at a time.
    static let shortIDPage = 1000
}
