import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

/// A read of every match starts from the index of a tag, a project or a due range ("v21 filter
/// indexes", `ItemFilter.start`); a page still walks the list's order. Whichever way it reads,
/// it lists what `Filter.admits` says in memory, in the list's order.
@Suite struct FilterIndexTests {
    static let today = FilterStoreTests.today
    static let tags = ["garden", "Garden", "home", "work", "bench", "reading list", "ÉTÉ"]
    /// `p` holds `P.errands` and `p.x.y`, but neither `p-x` (which sorts between `p` and `p.`)
    /// nor `pa`.
    static let projects: [String?] = [nil, nil, "p", "P.errands", "p.x.y", "p-x", "pa", "home", "home.garden"]
    static let terms = [
        "+garden", "-garden", "+GARDEN", "+home", "-home", "+work", "+bench", #"+"reading list""#, "+été", "+ÉTÉ",
        "#work", "project:p", "project:P", "project:p.errands", "project:p-x", "project:pa", "project:home",
        "project:none", "due.before:eow", "due.after:today", "due:today", "due:none", "due.before:-2d",
        "status:open", "status:done", "kind:task", "kind:note", "priority:h", "priority:none", "status:waiting",
        "wait:none", "scheduled:none", "created.before:+1d", "updated.after:today",
    ]

    /// A few thousand generated items, some of them edited, pinned, deleted and purged, so that
    /// every write path has run the tag index's triggers.
    static func makeStore(seed: UInt64, count: Int) throws -> AppDatabase {
        let store = try StoreFixture.make(seed: seed)
        var random = SeededRandom(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let entries = (0..<count).map { index -> ImportEntry in
            let kind: ItemKind = pick([.note, .task, .task])
            return ImportEntry(
                kind: kind, title: "item \(index)", tags: (0..<Int(random.next() % 4)).map { _ in pick(tags) },
                done: kind == .task && random.next() % 3 != 0,
                due: random.next() % 3 == 0 ? nil : today.adding(days: Int(random.next() % 15) - 7),
                priority: pick(Priority.allCases), project: pick(projects),
                wait: kind == .task && random.next() % 10 == 0 ? today.adding(days: Int(random.next() % 5) - 2) : nil,
                createdAt: start.addingTimeInterval(TimeInterval(index)),
                updatedAt: start.addingTimeInterval(TimeInterval(index)))
        }
        _ = try store.importItems(entries)
        let ids = try store.items(matching: ItemFilter(includeDeleted: true)).map(\.id)
        for _ in 0..<(count / 20) {
            let id = pick(ids)
            _ = try store.update(id, fields: [.tags: .strings((0..<Int(random.next() % 3)).map { _ in pick(tags) })])
        }
        _ = try store.setPinned((0..<10).map { _ in pick(ids) }, true)
        let deleted = Array(Set((0..<(count / 30)).map { _ in pick(ids) }))
        _ = try store.delete(deleted)
        _ = try store.purge(Array(deleted.prefix(deleted.count / 2)))
        return store
    }

    @Test(arguments: [1, 2]) func everyReadListsWhatTheFilterAdmitsInTheListsOrder(seed: UInt64) throws {
        let store = try Self.makeStore(seed: seed, count: 3000)
        // The tag index holds each live row's tags, folded, and nothing else.
        let derived = "SELECT DISTINCT lower(json_each.value), item.rowNumber FROM item, json_each(item.tags)"
        let indexed = "SELECT key, rowNumber FROM itemTag"
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM (\(derived) EXCEPT \(indexed))") == 0)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM (\(indexed) EXCEPT \(derived))") == 0)

        let everything = try store.items(matching: ItemFilter(includeDeleted: true))
        let calendar = FilterStoreTests.calendar(today: Self.today)
        var random = SeededRandom(seed: seed)
        var narrowing = 0
        for round in 0..<120 {
            let text = FilterStoreTests.filterText(depth: 2, terms: Self.terms, &random)
            let expression = try Filter.parse(text, calendar: calendar)
            let base: ItemFilter =
                switch round % 3 {
                case 0: ItemFilter(expression: expression)
                case 1: ItemFilter(status: .open, includeDeleted: true, expression: expression)
                default: .defaultList(expression: expression, today: Self.today)
                }
            let expected = everything.filter { item in
                (base.includeDeleted || !item.deleted) && base.status.admits(item) && expression.admits(item)
                    && !(base.hidesWaitingAfter.map { item.isWaiting(after: $0) } ?? false)
            }.sorted { ($0.pinned ? 1 : 0, $0.id) > ($1.pinned ? 1 : 0, $1.id) }.map(\.id)
            #expect(try store.items(matching: base).map(\.id) == expected, "every match: \(text)")
            #expect(try store.items(matching: base, limit: 20).map(\.id) == Array(expected.prefix(20)), "page: \(text)")
            #expect(try store.count(matching: base) == expected.count, "count: \(text)")
            var streamed: [String] = []
            try store.forEachItem(matching: base) { streamed.append($0.id) }
            #expect(streamed == expected, "streamed: \(text)")
            if expected.count > 1 && expected.count < everything.count / 2 { narrowing += 1 }
        }
        #expect(narrowing > 40)
    }

    /// The plan of a read of every match, as `quire list` and `--json` run it.
    static func plan(_ text: String, in store: AppDatabase, readsEveryMatch: Bool = true) throws -> String {
        let expression = try Filter.parse(text, calendar: FilterStoreTests.calendar(today: today))
        let filter = ItemFilter.defaultList(expression: expression, today: today)
        return try store.writer.read { db in
            let (sql, arguments) = try AppDatabase.listing(
                filter.forWaiting(in: db), readsEveryMatch: readsEveryMatch, in: db)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                .map { row -> String in row["detail"] }.joined(separator: " | ")
        }
    }

    /// A tag term reads the tag's rows, a project term the project's range of its index: never
    /// every live row down `item_by_order` (390 ms at a million items for a filter that keeps
    /// one in 84).
    @Test func aTagOrAProjectIsReadFromItsIndex() throws {
        let store = try Self.makeStore(seed: 3, count: 200)
        let cases = [
            ("+garden", "SEARCH itemTag USING PRIMARY KEY (key=?)"),
            ("+garden kind:task", "SEARCH itemTag USING PRIMARY KEY (key=?)"),
            ("project:p", "SEARCH item USING INDEX item_by_project_and_due (project>? AND project<?)"),
            ("+garden project:p due.before:eow", "SEARCH item USING INDEX item_by_project_and_due"),
            ("due.before:eow", "SEARCH item USING INDEX item_by_due"),
        ]
        for (text, expected) in cases {
            let plan = try Self.plan(text, in: store)
            #expect(plan.contains(expected) && !plan.contains("item_by_order"), "\(text): \(plan)")
        }
        // A term that not every match passes cannot start the read.
        #expect(try Self.plan("+garden or project:p", in: store).contains("item_by_order"))
        // A page walks the list's order and stops once it is full, whatever the filter.
        let page = try Self.plan("+garden project:p", in: store, readsEveryMatch: false)
        #expect(page.contains("item_by_order") && !page.contains("TEMP B-TREE"), "\(page)")
    }

    /// A store from before the tag index gets one for every item it holds.
    @Test func aStoreFromBeforeTheTagIndexGetsItFilled() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        do {
            let queue = try DatabaseQueue(path: path)
            try AppDatabase.migrator(environment: .deterministic()).migrate(queue, upTo: "v20 open tasks by urgency")
            try queue.write { db in
                for (index, tags) in [#"["Garden", "garden", "home"]"#, #"["work"]"#, "[]"].enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO item (id, kind, title, tags, project, createdAt, updatedAt)
                            VALUES (?, 'note', 'Old item', ?, 'P.errands', '2026-11-01T00:00:00.000Z',
                              '2026-11-01T00:00:00.000Z')
                            """, arguments: ["0193a9d2-0000-7000-8000-00000000000\(index)", tags])
                }
            }
            try queue.close()
        }
        let store = try AppDatabase.open(path: path, environment: .deterministic())
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemTag") == 3)
        let calendar = FilterStoreTests.calendar(today: Self.today)
        for (text, expected) in [("+GARDEN", 1), ("+garden project:p", 1), ("project:p -home", 2), ("+work", 1)] {
            let filter = ItemFilter(expression: try Filter.parse(text, calendar: calendar))
            #expect(try store.items(matching: filter).count == expected, "\(text)")
            #expect(try store.count(matching: filter) == expected, "\(text)")
        }
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
    }
}
