import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

@Suite struct ListTests {
    @Test func pinnedFirstThenNewestFirst() throws {
        let store = try StoreFixture.make()
        let a = try store.create(NewItem(title: "a"))
        let b = try store.create(NewItem(title: "b", pinned: true))
        let c = try store.create(NewItem(title: "c"))
        let d = try store.create(NewItem(title: "d", pinned: true))
        #expect(try store.items().map(\.title) == [d, b, c, a].map(\.title))
    }

    @Test func filtersCountsAndPagesAgree() throws {
        let store = try StoreFixture.make()
        var tasks: [Item] = []
        for index in 0..<30 {
            tasks.append(
                try store.create(NewItem(kind: .task, title: "task \(index)", tags: index % 3 == 0 ? ["three"] : [])))
        }
        for index in 0..<10 { try store.create(NewItem(title: "note \(index)")) }
        try store.setDone(tasks.prefix(12).map(\.id), true)
        try store.delete([tasks[20].id, tasks[21].id])
        let cases: [(ItemFilter, Int)] = [
            (.live, 38),
            (.open, 16),
            (ItemFilter(kind: .task, status: .open), 16),
            (ItemFilter(status: .done), 12),
            (ItemFilter(kind: .note), 10),
            (ItemFilter(tag: "three"), 9),
            (ItemFilter(tag: "three", includeDeleted: true), 10),
            (ItemFilter(includeDeleted: true), 40),
            (ItemFilter(needsReview: true), 0),
        ]
        for (filter, expected) in cases {
            #expect(try store.count(matching: filter) == expected, "\(filter)")
            #expect(try store.items(matching: filter).count == expected, "\(filter)")
        }
        let page = try store.page(matching: .open, limit: 10, offset: 10)
        #expect(page.total == 16 && page.items.count == 6)
        #expect(page.items == Array(try store.items(matching: .open)[10...]))
        var streamed: [Item] = []
        try store.forEachItem(matching: .open) { streamed.append($0) }
        #expect(streamed == (try store.items(matching: .open)))
    }

    @Test func listQueriesUseTheOrderIndexes() throws {
        let store = try StoreFixture.make()
        for filter in [ItemFilter.live, .open] {
            let (condition, arguments) = try store.writer.read { try filter.whereClause(in: $0) }
            let plan = try store.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "EXPLAIN QUERY PLAN SELECT id FROM item WHERE \(condition) ORDER BY item.pinned DESC, item.id DESC LIMIT 100",
                    arguments: arguments
                ).map { row -> String in row["detail"] }
            }.joined(separator: " ")
            #expect(plan.contains("item_by") && !plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    /// `quire next` scores every open task: from the index of the open tasks alone (v20), never
    /// from the rows of every open item (318 ms at a million items).
    @Test func urgencyReadsOnlyTheOpenTasksIndex() throws {
        let store = try StoreFixture.make()
        let today = Day(year: 2026, month: 11, day: 26)!
        for waiting in [false, true] {
            if waiting {
                _ = try store.create(NewItem(kind: .task, title: "later", wait: Day(year: 2027, month: 1, day: 1)))
            }
            let filter = ItemFilter.defaultList(status: .open, today: today)
            let plan = try store.writer.read { db in
                let (condition, arguments) = try filter.forWaiting(in: db).whereClause(in: db)
                return try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.urgencyScanSQL(filter, condition: condition),
                    arguments: arguments
                ).map { row -> String in row["detail"] }
            }.joined(separator: " ")
            #expect(plan.contains("COVERING INDEX item_open_tasks"), "\(plan)")
        }
    }
}

@Suite struct PositionTests {
    @Test func anItemsPositionIsWhereTheListingPutsIt() throws {
        let store = try StoreFixture.make()
        _ = try store.importItems((0..<30).map { ImportEntry(kind: $0 % 3 == 0 ? .task : .note, title: "Item \($0)") })
        let all = try store.items()
        try store.setPinned([all[20].id], true)
        for filter in [ItemFilter.live, ItemFilter(kind: .task), ItemFilter(kind: .note)] {
            let listed = try store.items(matching: filter)
            for (index, item) in listed.enumerated() {
                #expect(try store.position(of: item.id, matching: filter) == index)
            }
        }
        let note = try #require(all.first { $0.kind == .note })
        #expect(try store.position(of: note.id, matching: ItemFilter(kind: .task)) == nil, "not in that list")
        try store.delete([note.id])
        #expect(try store.position(of: note.id) == nil)
    }
}

@Suite struct SearchTests {
    @Test func findsPrefixesOfWordsInTitleBodyAndTags() throws {
        let store = try StoreFixture.make()
        let milk = try store.create(NewItem(title: "Buy oat milk", tags: ["errands"]))
        let body = try store.create(NewItem(title: "Shopping", body: "remember the milkshake"))
        let tagged = try store.create(NewItem(title: "Something else", tags: ["milkrun"]))
        _ = try store.create(NewItem(title: "Unrelated"))
        let found = try store.search("mil")
        #expect(Set(found.map(\.id)) == [milk.id, body.id, tagged.id])
        #expect(found.first?.id == milk.id, "a title match ranks first")
        #expect(try store.search("buy MIL").map(\.id) == [milk.id])
        #expect(try store.search("errand").map(\.id) == [milk.id])
        #expect(try store.search("café").isEmpty)
        #expect(try store.search("\"AND* NEAR(").isEmpty, "FTS syntax in the query is just text")
        #expect(try store.search("  ").isEmpty)
    }

    @Test func theIndexFollowsEditsDeletesAndRestores() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Alpha", body: "first"))
        try store.update(item.id, fields: [.title: .string("Beta"), .tags: .strings(["gamma"])])
        #expect(try store.search("alpha").isEmpty)
        #expect(try store.search("beta gam first").map(\.id) == [item.id])
        try store.setPinned([item.id], true)
        #expect(try store.search("beta").count == 1)
        try store.delete([item.id])
        #expect(try store.search("beta").isEmpty)
        #expect(try store.search("beta", matching: ItemFilter(includeDeleted: true)).count == 1)
        try store.restore([item.id])
        #expect(try store.search("beta").count == 1)
        try StoreFixture.execute(store, "INSERT INTO itemSearch(itemSearch, rank) VALUES ('integrity-check', 1)")
        try StoreFixture.execute(
            store, "INSERT INTO itemHeadSearch(itemHeadSearch, rank) VALUES ('integrity-check', 1)")
    }

    @Test func accentsAndCaseDoNotMatter() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Crème Brûlée recipe"))
        #expect(try store.search("creme brul").map(\.id) == [item.id])
    }
}

@Suite struct ResolveTests {
    @Test func uniquePrefixesResolveAndOthersSayWhy() throws {
        let store = try StoreFixture.make()
        let entries = [
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "one"),
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000000abce", title: "two"),
            ImportEntry(id: "0193b000-0000-7000-8000-000000000000", title: "three"),
        ]
        _ = try store.importItems(entries)
        #expect(try store.resolve("0193b") == "0193b000-0000-7000-8000-000000000000")
        #expect(try store.resolve("0193B000-0000") == "0193b000-0000-7000-8000-000000000000")
        #expect(try store.resolve("0193a9d2-7fff-7000-8000-00000000abcd") == "0193a9d2-7fff-7000-8000-00000000abcd")
        #expect(try store.resolve("0193a9d27fff7000800000000000abce") == "0193a9d2-7fff-7000-8000-00000000abce")
        #expect(
            throws: StoreError.ambiguousPrefix(
                "0193a",
                candidates: [
                    "0193a9d2-7fff-7000-8000-00000000abcd", "0193a9d2-7fff-7000-8000-00000000abce",
                ])
        ) { try store.resolve("0193a") }
        #expect(throws: StoreError.unknownPrefix("ffff")) { try store.resolve("ffff") }
        #expect(throws: StoreError.invalidPrefix("019")) { try store.resolve("019") }
        #expect(throws: StoreError.invalidPrefix("milk")) { try store.resolve("milk") }
        #expect(throws: StoreError.invalidPrefix("01-93a")) { try store.resolve("01-93a") }
    }

    @Test func shortIDsComeFromTheRandomEndAndResolve() throws {
        let store = try StoreFixture.make()
        _ = try store.importItems([
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "one"),
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000001abcd", title: "two"),
            ImportEntry(id: "0193b000-0000-7000-8000-000000000000", title: "three"),
        ])
        let short = try store.shortIDs(for: [
            "0193a9d2-7fff-7000-8000-00000000abcd", "0193a9d2-7fff-7000-8000-00000001abcd",
            "0193b000-0000-7000-8000-000000000000",
        ])
        // The first item written takes the 4-digit piece; the second, which ends the same, takes
        // the next free piece.
        #expect(short["0193a9d2-7fff-7000-8000-00000000abcd"] == "abcd")
        #expect(short["0193a9d2-7fff-7000-8000-00000001abcd"] == "1abcd")
        #expect(short["0193b000-0000-7000-8000-000000000000"] == "0000")
        for (id, code) in short {
            #expect(try store.resolve(code) == id)
            #expect(try store.resolve(code.uppercased()) == id)
        }
        // Three that end alike: the third candidate, then (all three taken) one given after
        // the insert by `assignShortIDs`.
        _ = try store.importItems([
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000011abcd", title: "four"),
            ImportEntry(id: "0193a9d2-7fff-7000-8000-00000111abcd", title: "five"),
        ])
        let more = try store.shortIDs(for: [
            "0193a9d2-7fff-7000-8000-00000011abcd", "0193a9d2-7fff-7000-8000-00000111abcd",
        ])
        #expect(more["0193a9d2-7fff-7000-8000-00000011abcd"] == "11abcd")
        let fifth = try #require(more["0193a9d2-7fff-7000-8000-00000111abcd"])
        #expect(!["abcd", "1abcd", "11abcd"].contains(fifth))
        #expect(try store.resolve(fifth) == "0193a9d2-7fff-7000-8000-00000111abcd")
        // Full ids and prefixes of them keep working beside the short ids.
        #expect(try store.resolve("0193b") == "0193b000-0000-7000-8000-000000000000")
    }

    @Test func aShortIDNeverChangesWhenItemsArriveLater() throws {
        let store = try StoreFixture.make()
        _ = try store.importItems([ImportEntry(id: "0193a9d2-7fff-7000-8000-00000001abcd", title: "first")])
        #expect(try store.shortIDs(for: ["0193a9d2-7fff-7000-8000-00000001abcd"]).values.first == "abcd")
        // A synced-in item whose id sorts earlier and ends the same gets the next free piece.
        _ = try store.importItems([ImportEntry(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "later")])
        #expect(try store.resolve("abcd") == "0193a9d2-7fff-7000-8000-00000001abcd")
        #expect(try store.shortIDs(for: ["0193a9d2-7fff-7000-8000-00000000abcd"]).values.first == "0abcd")
    }

    @Test func shortIDsStayWithinSixDigitsForTenThousandItems() throws {
        let store = try StoreFixture.make()
        var generator = UUIDv7Generator()
        var random = SeededRandom(seed: 13)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let ids = (0..<10_000).map { index in
            generator.next(now: start.addingTimeInterval(Double(index) * 0.0003), using: &random)
        }
        _ = try store.importItems(ids.map { ImportEntry(id: $0, title: "item") })
        let short = try store.shortIDs(for: ids)
        #expect(Set(short.values).count == ids.count)
        #expect(short.values.map(\.count).max() ?? 99 <= ShortID.preferredMaximumLength)
        for id in ids.prefix(50) { #expect(try store.resolve(short[id]!) == id) }
    }
}

@Suite struct ObservationTests {
    @Test func changeObserversHearCommitsOnTheirQueue() throws {
        let store = try StoreFixture.make()
        let queue = DispatchQueue(label: "test.observer")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let calls = Locked(0)
        let onQueue = Locked(true)
        let observation = store.observeChanges(on: queue) {
            calls.update { $0 += 1 }
            if DispatchQueue.getSpecific(key: key) != true { onQueue.update { $0 = false } }
        }
        try store.create(NewItem(title: "seen"))
        #expect(StoreFixture.wait { calls.get() >= 1 })
        #expect(onQueue.get())
        observation.cancel()
        let before = calls.get()
        try store.create(NewItem(title: "unseen"))
        // A cancelled observation is not called for later commits: check after a barrier on its queue.
        queue.sync {}
        #expect(calls.get() == before)
    }

    @Test func pageObserversGetFreshPages() throws {
        let store = try StoreFixture.make()
        let pages = Locked<[ItemPage]>([])
        let observation = store.observePage(matching: .live, limit: 2, on: DispatchQueue(label: "test.pages")) { page in
            pages.update { $0.append(page) }
        }
        defer { observation.cancel() }
        #expect(StoreFixture.wait { pages.get().count >= 1 })
        try store.create(NewItem(title: "first"))
        try store.create(NewItem(title: "second"))
        try store.create(NewItem(title: "third"))
        #expect(StoreFixture.wait { pages.get().last?.total == 3 })
        #expect(pages.get().last?.items.map(\.title) == ["third", "second"])
    }

    @Test func dataVersionMovesWhenAnotherConnectionCommits() throws {
        let store = try StoreFixture.make()
        let other = try AppDatabase.open(path: store.path, environment: .deterministic(seed: 3))
        let start = try store.dataVersion()
        #expect(try store.dataVersion() == start)
        try other.create(NewItem(title: "from elsewhere"))
        #expect(try store.dataVersion() != start)
        let next = try store.dataVersion()
        try store.create(NewItem(title: "from here"))
        #expect(try store.dataVersion() != next, "commits by this store's own writer count too")
    }

    /// A poll tells an upload's progress (at every chunk) or a draft (300 ms after a key in the
    /// editor) from an item's change by the shown version: sync's own records and drafts leave
    /// it, anything a screen shows moves it.
    @Test func theShownVersionStaysForSyncRecordsAndMovesForWhatTheScreensShow() throws {
        let store = try StoreFixture.make()
        let other = try AppDatabase.open(path: store.path, environment: .deterministic(seed: 3))
        let item = try other.create(NewItem(title: "first"))

        let data = try store.dataVersion()
        let shown = try store.shownVersion()
        try other.recordTransfer(.uploading(sentBytes: 1 << 20), of: String(repeating: "a", count: 64))
        try other.syncStorage().write(.synced) { transaction in
            try transaction.appendEvents(
                [SyncEvent(at: Date(timeIntervalSince1970: 1_800_000_000), kind: .pullOK, message: "pulled")],
                keeping: 10)
            var position = try transaction.position()
            position.lastSuccessAt = Date(timeIntervalSince1970: 1_800_000_000)
            try transaction.setPosition(position)
        }
        try other.saveDraft(Draft(itemID: item.id, kind: .note, title: "typed", body: ""))
        #expect(try store.dataVersion() != data, "the commits were seen")
        #expect(try store.shownVersion() == shown, "sync's own records and drafts show on no list")

        let writes: [(String, () throws -> Void)] = [
            ("a new item", { _ = try other.create(NewItem(title: "second")) }),
            ("an edit", { _ = try other.update(item.id, fields: [.title: .text("first, edited")]) }),
            ("a deletion", { _ = try other.delete([item.id]) }),
        ]
        for (what, write) in writes {
            let before = try store.shownVersion()
            try write()
            #expect(try store.shownVersion() != before, "\(what) moves the shown version")
        }
    }

    /// Every table a screen may read adds to the shown version on insert, update and delete;
    /// a table added later must do the same, or be named in `tablesNotShown` with its reason.
    @Test func everyTableButSyncRecordsAndDerivedOnesMovesTheShownVersion() throws {
        let store = try StoreFixture.make()
        let (tables, triggers) = try store.writer.read { db in
            let virtual = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).filter { name in !virtual.contains { name.hasPrefix($0 + "_") } }
            let triggers = try Row.fetchAll(db, sql: "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
                .map { (table: $0["tbl_name"] as String, sql: $0["sql"] as String) }
            return (tables, triggers)
        }
        for name in AppDatabase.tablesNotShown {
            #expect(tables.contains(name), "\(name) is named as not shown but is no table")
        }
        for table in tables where !AppDatabase.tablesNotShown.contains(table) {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                let counted = triggers.contains { trigger in
                    trigger.table == table && trigger.sql.contains("AFTER \(event) ON \(table)")
                        && trigger.sql.contains("UPDATE shownVersion SET n = n + 1")
                }
                #expect(counted, "\(event) on \(table) leaves the shown version as it is")
            }
        }
    }
}

/// A search's full count, with the filters a list applies.
@Suite struct MatchCountTests {
    @Test func everyMatchIsCountedWithTheFilters() throws {
        let store = try StoreFixture.make()
        _ = try store.importItems(
            (0..<30).map { ImportEntry(kind: $0 % 3 == 0 ? .task : .note, title: "Milk run \($0)") }
                + [ImportEntry(title: "Bread")])
        let milk = try store.search("mil")
        try store.delete([milk[0].id])
        #expect(try store.countMatches("mil") == 29)
        #expect(try store.countMatches("mil", matching: ItemFilter(kind: .task)) == (milk[0].kind == .task ? 9 : 10))
        #expect(try store.countMatches("bread") == 1)
        #expect(try store.countMatches("  ") == 0)
    }
}

/// `O` and `quire list --sort`: every order the SQL runs is the order `ItemOrder.precedes`
/// says, and an item's position in it is where the listing puts it (the app's anchor).
@Suite struct OrderedListingTests {
    /// Items whose sort keys collide often: few due dates (and none), few priorities, and
    /// creation and change times that repeat, so ties go to the id.
    func store(seed: UInt64) throws -> AppDatabase {
        let store = try StoreFixture.make()
        var random = SeededRandom(seed: seed)
        let days = [nil, Day("2026-11-20"), Day("2026-11-22"), Day("2026-12-01")]
        for index in 0..<40 {
            let item = try store.create(
                NewItem(
                    kind: .task, title: "task \(index)", due: days[Int(random.next() % 4)] ?? nil,
                    priority: Priority.allCases[Int(random.next() % 4)], pinned: random.next() % 5 == 0))
            if random.next() % 3 == 0 { _ = try store.update(item.id, fields: [.title: .string("changed \(index)")]) }
        }
        return store
    }

    @Test(arguments: ItemOrder.allCases)
    func theStoresOrderIsPrecedesAndPositionsAgree(_ order: ItemOrder) throws {
        for seed in UInt64(1)...5 {
            let store = try store(seed: seed)
            let filter = ItemFilter(kind: .task, order: order)
            let listed = try store.items(matching: filter)
            #expect(listed.count == 40)
            #expect(listed == listed.sorted(by: order.precedes), "seed \(seed)")
            for (index, item) in listed.enumerated() {
                #expect(try store.position(of: item.id, matching: filter) == index, "seed \(seed) \(item.title)")
            }
            let paged = try (0..<4).flatMap { try store.items(matching: filter, limit: 10, offset: $0 * 10) }
            #expect(paged == listed)
            var streamed: [Item] = []
            try store.forEachItem(matching: filter) { streamed.append($0) }
            #expect(streamed == listed)
        }
    }

    @Test func dueFirstSoonestThenNoDateAndPinsDoNotJump() throws {
        let store = try StoreFixture.make()
        let later = try store.create(NewItem(kind: .task, title: "later", due: Day("2026-12-01")))
        let none = try store.create(NewItem(kind: .task, title: "no date", pinned: true))
        let soon = try store.create(NewItem(kind: .task, title: "soon", due: Day("2026-11-23")))
        let titles = try store.items(matching: ItemFilter(order: .due)).map(\.title)
        #expect(titles == [soon, later, none].map(\.title))
        #expect(try store.position(of: none.id, matching: ItemFilter(order: .due)) == 2)
        #expect(try store.position(of: none.id, matching: ItemFilter(kind: .note, order: .due)) == nil)
    }
}
