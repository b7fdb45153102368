import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

/// Search ranks every match: title, then title and tags together, then anywhere; the most
/// recently added first within each. Checked against the ranking worked out in Swift from
/// every item, over random stores, queries and filters.
@Suite struct SearchRankingTests {
    @Test func titlesRankAboveTagsAboveBodiesNewestFirstWithinEach() throws {
        let store = try StoreFixture.make()
        let oldTitle = try store.create(NewItem(title: "Garden plan"))
        let body = try store.create(NewItem(title: "Weekend", body: "weed the garden"))
        let tag = try store.create(NewItem(title: "Seeds", tags: ["gardening"]))
        let newTitle = try store.create(NewItem(title: "Gardens to visit"))
        let newBody = try store.create(NewItem(title: "Shed", body: "garden tools"))
        _ = try store.create(NewItem(title: "Unrelated"))
        #expect(try store.search("gard").map(\.id) == [newTitle.id, oldTitle.id, tag.id, newBody.id, body.id])
        #expect(try store.search("gard", limit: 3).map(\.id) == [newTitle.id, oldTitle.id, tag.id])
        #expect(try store.search("gard", limit: 0).isEmpty)
    }

    @Test func wordsSplitBetweenTitleAndTagsRankInTheSecondTier() throws {
        let store = try StoreFixture.make()
        let split = try store.create(NewItem(title: "Buy milk", tags: ["errands"]))
        let bodyOnly = try store.create(NewItem(title: "Buy bread", body: "errands after work"))
        let bothInTitle = try store.create(NewItem(title: "Buy for errands"))
        #expect(try store.search("buy errand").map(\.id) == [bothInTitle.id, split.id, bodyOnly.id])
    }

    /// An old item whose title matches beats a thousand newer body matches: no window of the
    /// newest matches decides what can rank.
    @Test func anOldTitleMatchOutranksManyNewerBodyMatches() throws {
        let store = try StoreFixture.make()
        let old = try store.create(NewItem(title: "Quarterly budget"))
        _ = try store.importItems(
            (0..<1000).map { ImportEntry(kind: .note, title: "Note \($0)", body: "mentions the budget") })
        let found = try store.search("budget", limit: 10)
        #expect(found.count == 10 && found.first?.id == old.id)
    }

    @Test func everyTierIsReadInIndexOrderWithoutASort() throws {
        let store = try StoreFixture.make()
        for filter in [ItemFilter.live, .open, ItemFilter(kind: .task), ItemFilter(onlyDeleted: true)] {
            let (condition, arguments) = try store.writer.read { try filter.whereClause(in: $0) }
            for tier in try #require(SearchQuery.tiers("budget wee")) {
                for withShortIDs in [false, true] {
                    var all: StatementArguments = [tier.match]
                    all += arguments
                    all += [10]
                    let sql =
                        "EXPLAIN QUERY PLAN "
                        + AppDatabase.searchTierSQL(in: tier.index, where: condition, withShortIDs: withShortIDs)
                    let plan = try store.writer.read { db in
                        try Row.fetchAll(db, sql: sql, arguments: all).map { row -> String in row["detail"] }
                    }.joined(separator: " | ")
                    #expect(plan.hasPrefix("SCAN \(tier.index.rawValue) VIRTUAL TABLE"), "\(plan)")
                    #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
                    if withShortIDs {
                        // One lookup by the item's row, not the id index and then the row.
                        #expect(plan.contains("SEARCH itemCode USING INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
                    }
                }
            }
        }
    }

    @Test(arguments: 1...12) func matchesTheRankingWorkedOutFromEveryItem(seed: UInt64) throws {
        let store = try StoreFixture.make(seed: seed)
        var random = SeededRandom(seed: seed)
        let vocabulary = ["apple", "apricot", "bread", "brie", "budget", "bike", "cherry", "cake", "milk", "mint"]
        func words(_ count: Int) -> String {
            (0..<count).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
        }
        // Created oldest first: an item's place here is its place in the index's row order.
        var created: [String] = []
        for _ in 0..<(40 + Int(random.next() % 80)) {
            let kind: ItemKind = random.next() % 2 == 0 ? .task : .note
            let tags = (0..<Int(random.next() % 3)).map { _ in words(1) }
            created.append(
                try store.create(
                    NewItem(
                        kind: kind, title: words(1 + Int(random.next() % 3)), body: words(Int(random.next() % 5)),
                        tags: tags)
                ).id)
        }
        // Edits, completions and deletions after the fact: the index must follow them.
        for _ in 0..<20 {
            let id = created[Int(random.next() % UInt64(created.count))]
            guard let item = try store.item(id), !item.deleted else { continue }
            switch random.next() % 4 {
            case 0: _ = try store.update(id, fields: [.title: .string(words(2))])
            case 1: _ = try store.update(id, fields: [.tags: .strings([words(1)])])
            case 2: _ = try store.delete([id])
            default: if item.kind == .task { _ = try store.setDone([id], true) }
            }
        }
        let filters = [ItemFilter.live, .open, ItemFilter(kind: .note), ItemFilter(onlyDeleted: true)]
        for _ in 0..<40 {
            let query = (0..<(1 + Int(random.next() % 2))).map { _ -> String in
                let word = vocabulary[Int(random.next() % UInt64(vocabulary.count))]
                return String(word.prefix(1 + Int(random.next() % UInt64(word.count))))
            }.joined(separator: " ")
            let filter = filters[Int(random.next() % UInt64(filters.count))]
            let limit = [1, 3, 10, 1000][Int(random.next() % 4)]
            let expected = try Self.ranking(query, among: created, in: store, matching: filter)
            let found = try store.search(query, matching: filter, limit: limit).map(\.id)
            #expect(found == Array(expected.prefix(limit)), "query \(query) filter \(filter) limit \(limit)")
            #expect(try store.countMatches(query, matching: filter) == expected.count)
        }
    }

    /// The ranking worked out in Swift: which tier each listed item falls in by looking at its
    /// words, then the newest first within each tier.
    private static func ranking(
        _ query: String, among created: [String], in store: AppDatabase, matching filter: ItemFilter
    )
        throws -> [String]
    {
        let words = SearchQuery.words(query)
        let listed = Set(try store.items(matching: filter).map(\.id))
        func holdsEvery(_ fields: [String]) -> Bool {
            let have = fields.flatMap(SearchQuery.words)
            return words.allSatisfy { word in have.contains { $0.hasPrefix(word) } }
        }
        var tiers: [[String]] = [[], [], []]
        for id in created.reversed() where listed.contains(id) {
            let item = try #require(try store.item(id))
            let tags = item.tags.joined(separator: " ")
            if holdsEvery([item.title]) {
                tiers[0].append(id)
            } else if holdsEvery([item.title, tags]) {
                tiers[1].append(id)
            } else if holdsEvery([item.title, tags, item.body]) {
                tiers[2].append(id)
            }
        }
        return tiers.flatMap { $0 }
    }
}
