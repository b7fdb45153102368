import GRDB
import QuireCore

// MARK: - Links between items

/// `[[Title]]` and `[[ID]]` links (SPEC: Links), read from a derived index: `itemLink` holds
/// each body's links (`WikiLink.links`) and `itemTitle` every title each item has had on this
/// device (migration "v17 links"). Triggers on `item` keep both in step with every write of a
/// row, whichever path writes it (an edit, an import, a pulled change, a merge): they note a
/// body to read again in `itemLinkStale`, which `readStaleLinks` empties before the write's
/// transaction commits, as `assignShortIDs` does for short ids.
///
/// How a link finds its item, by its key (`WikiLink.key`):
/// 1. a full id: that item;
/// 2. else the live item whose title is the text, without regard to case; when several share
///    it, the one created last (the newest, as lists show first);
/// 3. else the live item that once had that title on this device (the newest, again), so that
///    a link written before a rename still reaches the item;
/// 4. else a deleted item with that title, current or former: the link shows it as deleted;
/// 5. else nothing: the link is shown as unresolved.
extension AppDatabase {
    /// Where one link of a body leads.
    public struct ResolvedLink: Sendable, Equatable {
        /// The link as written.
        public var link: WikiLink
        /// The item it reaches (perhaps deleted), nil when none.
        public var item: Item?
    }

    /// The links of an item's body, in the order they appear, each with the item it reaches.
    public func links(of id: String) throws(StoreError) -> [ResolvedLink] {
        try read { db in
            let sql = """
                SELECT itemLink.text FROM itemLink JOIN item ON item.rowNumber = itemLink.rowNumber
                WHERE item.id = ? ORDER BY itemLink.position
                """
            return try String.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).map { text in
                let link = WikiLink(text: text)
                let target = try Self.linkTarget(link.key, in: db)
                return ResolvedLink(link: link, item: try target.flatMap { try ItemRow.fetch(id: $0, in: db) })
            }
        }
    }

    /// The live items whose bodies link to the item, pinned first then newest first: the list
    /// `links:ID` filters.
    public func backlinks(of id: String) throws(StoreError) -> [Item] {
        try items(matching: ItemFilter(expression: .term(.links(id))))
    }

    /// The body as Markdown export writes it: each link to a live item spelled so that it
    /// reaches the same item once the export is imported into another store, where former
    /// titles and deleted items are unknown: `[[Current title]]` when that title reaches the
    /// item here among live items (so there too: the same items, the same ids), else its full
    /// id. A link to no item, or to a deleted one, stays as written.
    static func exportedBody(of item: Item, in db: Database) throws -> String {
        let links = WikiLink.links(in: item.body)
        guard !links.isEmpty else { return item.body }
        var spelled: [String: String] = [:]
        for link in links {
            guard let id = try linkTarget(link.key, in: db), let target = try ItemRow.fetch(id: id, in: db),
                !target.deleted
            else { continue }
            let spellable = !target.title.contains(where: { $0 == "[" || $0 == "]" })
            let byTitle = try spellable && linkTarget(WikiLink.key(target.title), in: db) == id
            spelled[link.key] = byTitle ? target.title : id
        }
        return WikiLink.rewriting(item.body) { spelled[$0.key] }
    }

    /// Every live item with its body as Markdown export writes it (`exportedBody`), in one read.
    public func forEachItemForExport(_ body: (Item, String) throws -> Void) throws(StoreError) {
        try read { db in
            try Self.forEachItem(matching: .live, in: db) { item in
                try body(item, try Self.exportedBody(of: item, in: db))
            }
        }
    }

    /// The body a person wrote, with each `[[short id]]` written as the item's full id, before
    /// it is stored (SPEC: `[[ID]]`, short or full). A short id is this device's own name for an
    /// item (another device may give the same one to another item), while a body travels to
    /// every device, so the link is kept by the id that means the same item everywhere. A link
    /// whose text reaches an item by the rules above (a title, current or former) stays as
    /// written: a title outranks a short id, as it does when the link is read.
    static func bodyLinkingByID(_ body: String, in db: Database) throws -> String {
        guard body.contains("[[") else { return body }
        var spelled: [String: String] = [:]
        for link in WikiLink.links(in: body) where !link.isID {
            guard try linkTarget(link.key, in: db) == nil, let id = try itemID(shortID: link.text, in: db) else {
                continue
            }
            spelled[link.key] = id
        }
        guard !spelled.isEmpty else { return body }
        return WikiLink.rewriting(body) { spelled[$0.key] }
    }

    /// The full id of the item `key` reaches by the rules above, nil when none.
    static func linkTarget(_ key: String, in db: Database) throws -> String? {
        if WikiLink(text: key).isID {
            return try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM item WHERE id = ?"), arguments: [key])
        }
        let byTitle = """
            SELECT item.id FROM itemTitle JOIN item ON item.rowNumber = itemTitle.rowNumber
            WHERE itemTitle.key = ? AND item.deleted = 0 AND lower(item.title) = itemTitle.key
            ORDER BY item.id DESC LIMIT 1
            """
        let byFormerTitle = """
            SELECT item.id FROM itemTitle JOIN item ON item.rowNumber = itemTitle.rowNumber
            WHERE itemTitle.key = ? AND item.deleted = 0 ORDER BY item.id DESC LIMIT 1
            """
        let deleted = """
            SELECT item.id FROM itemTitle JOIN item ON item.rowNumber = itemTitle.rowNumber
            WHERE itemTitle.key = ? ORDER BY lower(item.title) = itemTitle.key DESC, item.id DESC LIMIT 1
            """
        for sql in [byTitle, byFormerTitle, deleted] {
            if let id = try String.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) { return id }
        }
        return nil
    }

    /// The keys that reach the item: its id, and those of its titles (current and former) that
    /// no other item takes by the rules above. What `links:ID` and backlinks look up.
    static func linkKeys(reaching id: String, in db: Database) throws -> [String] {
        let titles = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT itemTitle.key FROM itemTitle JOIN item ON item.rowNumber = itemTitle.rowNumber
                    WHERE item.id = ?
                    """),
            arguments: [id])
        return try [id] + titles.filter { try linkTarget($0, in: db) == id }
    }

    /// The keys `links:TARGET` looks up: TARGET is an id as typed on the command line (a short
    /// id, a full id or a unique prefix of one), found as `resolve` finds it.
    static func linkKeys(reachingTyped target: String, in db: Database) throws -> [String] {
        try linkKeys(reaching: try resolvedID(target, in: db), in: db)
    }

    /// Reads again the links of every body a trigger marked (see the type's comment), a page
    /// at a time so that a large import holds one page of bodies in memory.
    static func readStaleLinks(in db: Database) throws {
        let page = try db.cachedStatement(
            sql: """
                SELECT itemLinkStale.rowNumber, item.body FROM itemLinkStale
                JOIN item ON item.rowNumber = itemLinkStale.rowNumber ORDER BY itemLinkStale.rowNumber LIMIT 1000
                """)
        let clear = try db.cachedStatement(sql: "DELETE FROM itemLink WHERE rowNumber = ?")
        let insert = try db.cachedStatement(
            sql: "INSERT INTO itemLink (rowNumber, position, key, text) VALUES (?, ?, ?, ?)")
        let done = try db.cachedStatement(sql: "DELETE FROM itemLinkStale WHERE rowNumber = ?")
        while true {
            let rows = try Row.fetchAll(page)
            if rows.isEmpty { return }
            for row in rows {
                let number: Int64 = row[0]
                try clear.execute(arguments: [number])
                for (position, link) in WikiLink.links(in: row[1]).enumerated() {
                    try insert.execute(arguments: [number, position, link.key, link.text])
                }
                try done.execute(arguments: [number])
            }
        }
    }

    /// Renaming keeps links working.
    ///
    /// Why rewrite the bodies, and not only look titles up in the history: a body travels to
    /// every device, a title history does not. A device that first hears of an item after its
    /// rename (a new laptop's first pull) never saw the old title, so `[[Old title]]` could not
    /// find the item there. So the device where the rename is made writes `[[New title]]` in
    /// each live body that reached the item by the old title, as ordinary edits: they sync and
    /// merge line by line as any edit does, and every device ends with links that resolve by
    /// the current title. The title history (`itemTitle`, rule 3) covers what the rewrite
    /// cannot see: a link by the old title written on another device before it heard of the
    /// rename still reaches the item on every device that knew that title.
    /// A change of case only needs nothing (titles match without regard to case); a new title
    /// that another item holds too, or that a link cannot spell (brackets), is written as the
    /// full id.
    func rewriteLinks(renaming before: Item, to after: Item, in db: Database) throws {
        try Self.readStaleLinks(in: db)
        let oldKey = WikiLink.key(before.title)
        guard oldKey != WikiLink.key(after.title), try Self.linkTarget(oldKey, in: db) == after.id else { return }
        let reachedByTitle = try Self.linkTarget(WikiLink.key(after.title), in: db) == after.id
        let spelled =
            after.title.contains(where: { $0 == "[" || $0 == "]" }) || !reachedByTitle ? after.id : after.title
        let linking = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT item.id FROM itemLink JOIN item ON item.rowNumber = itemLink.rowNumber
                    WHERE itemLink.key = ? AND item.deleted = 0
                    """),
            arguments: [oldKey])
        for id in linking {
            guard let item = try ItemRow.fetch(id: id, in: db) else { continue }
            let body = WikiLink.replacing(key: oldKey, with: spelled, in: item.body)
            if body != item.body {
                _ = try recordUpdate(item, fields: [.body: .string(body)], origin: .local, in: db)
            }
        }
    }
}
