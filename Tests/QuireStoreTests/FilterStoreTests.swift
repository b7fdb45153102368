import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireStore

/// The store runs a filter as SQL; `Filter.admits` reads it in memory with no SQL at all. On
/// generated items and generated filter text the two must list the same items.
@Suite struct FilterStoreTests {
    /// A calendar whose days are 20 seconds long, starting at the deterministic clock's start:
    /// the store's items, made a second apart, then fall on many different days, so `created`
    /// and `updated` terms cut through them.
    static func calendar(today: Day) -> FilterCalendar {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = today.ordinal
        return FilterCalendar(today: today) { day in start.addingTimeInterval(TimeInterval(day.ordinal - first) * 20) }
    }

    static let today = Day("2026-11-26")!

    @Test(arguments: 1...8) func theStoreListsWhatTheFilterAdmits(seed: UInt64) throws {
        let store = try StoreFixture.make(seed: seed)
        var random = SeededRandom(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let words = ["milk", "mint", "bread", "apple", "shop"]
        let tags = ["home", "Home", "work", "reading list", "errands"]
        // `home` holds `Home.Garden` but not `homework`, whose name only starts the same.
        let projects: [String?] = [nil, nil, "home", "Home.Garden", "homework", "home.garden.beds", "work"]
        var ids: [String] = []
        for _ in 0..<(30 + Int(random.next() % 40)) {
            let due = random.next() % 3 == 0 ? nil : Self.today.adding(days: Int(random.next() % 15) - 5)
            let kind: ItemKind = pick([.note, .task])
            func someDay() -> Day? {
                kind == .task && random.next() % 2 == 0 ? Self.today.adding(days: Int(random.next() % 9) - 4) : nil
            }
            let item = try store.create(
                NewItem(
                    kind: kind, title: pick(words) + " " + pick(words),
                    body: random.next() % 2 == 0 ? "" : pick(words),
                    tags: (0..<Int(random.next() % 3)).map { _ in pick(tags) }, due: due,
                    priority: pick(Priority.allCases), project: pick(projects), wait: someDay(), scheduled: someDay()))
            ids.append(item.id)
        }
        for _ in 0..<15 {
            let id = pick(ids)
            switch random.next() % 3 {
            case 0: if try store.item(id)?.kind == .task { _ = try store.setDone([id], true) }
            case 1: _ = try store.update(id, fields: [.title: .string(pick(words))])
            default: _ = try store.update(id, fields: [.priority: .string(pick(Priority.allCases).rawValue)])
            }
        }
        let everything = try store.items(matching: ItemFilter(includeDeleted: true))
        let calendar = Self.calendar(today: Self.today)
        let live = everything.filter { !$0.deleted }.count
        var narrowing = 0
        for _ in 0..<60 {
            let text = Self.filterText(depth: 2, &random)
            let filter = try Filter.parse(text, calendar: calendar)
            let expected = Set(everything.filter { !$0.deleted && filter.admits($0) }.map(\.id))
            let listed = try store.items(matching: ItemFilter(expression: filter)).map(\.id)
            #expect(Set(listed) == expected, "filter \(text)")
            #expect(listed.count == Set(listed).count)
            #expect(try store.count(matching: ItemFilter(expression: filter)) == expected.count, "filter \(text)")
            // A default list hides what waits past today, unless the filter asks about waiting.
            let shown = ItemFilter.defaultList(expression: filter, today: Self.today)
            let visible = expected.filter { id in
                filter.mentionsWaiting || !(everything.first { $0.id == id }!.isWaiting(after: Self.today))
            }
            #expect(Set(try store.items(matching: shown).map(\.id)) == visible, "default list, filter \(text)")
            #expect(try store.count(matching: shown) == visible.count, "default list, filter \(text)")
            if !expected.isEmpty && expected.count < live { narrowing += 1 }
        }
        // Most filters keep some items and drop others: the comparison is not of empty lists.
        #expect(narrowing > 20)
    }

    /// Filter text from `terms`, with `and`, `or` and parentheses.
    static func filterText(depth: Int, terms: [String] = terms, _ random: inout SeededRandom) -> String {
        func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        let count = 1 + Int(random.next() % 3)
        var parts: [String] = []
        for index in 0..<count {
            if index > 0 { parts.append(pick([" ", " and ", " or "])) }
            if depth > 0, random.next() % 4 == 0 {
                parts.append("(" + filterText(depth: depth - 1, terms: terms, &random) + ")")
            } else {
                parts.append(pick(terms))
            }
        }
        return parts.joined()
    }

    /// Terms of every kind, for the items `theStoreListsWhatTheFilterAdmits` makes.
    static let terms = [
        "+home", "-home", "+WORK", "-work", #"+"reading list""#, "#errands", "kind:task", "kind:note",
        "status:open", "status:done", "priority:h", "priority:none", "priority:low", "due:today", "due:none",
        "due.before:eow", "due.after:tomorrow", "due.before:-2d", "due:+3d", "created:today", "created.before:+1d",
        "created.after:today", "updated:+1d", "updated.before:+2d", "mil", "bre", "apple", "sho", "m",
        "project:home", "project:HOME.garden", "project:homework", "project:none", "project:work",
        "status:waiting", "wait:none", "wait.after:today", "wait.before:+2d", "scheduled:today",
        "scheduled.after:-1d", "scheduled:none",
    ]

    /// A default list hides waiting tasks and still counts from the tallies while none waits:
    /// the hiding test is dropped then, so the count is the tallies' sum (the same number as the
    /// rows), and it counts rows only once a task waits past today.
    @Test func aDefaultListHidesWaitingTasksAndKeepsItsCountRight() throws {
        let store = try StoreFixture.make(seed: 5)
        for index in 0..<5 { try store.create(NewItem(kind: .task, title: "task \(index)")) }
        let shown = ItemFilter.defaultList(today: Self.today)
        #expect(try store.count(matching: shown) == 5)
        let later = try store.create(NewItem(kind: .task, title: "later", wait: Self.today.adding(days: 2)))
        let past = try store.create(NewItem(kind: .task, title: "past", wait: Self.today.adding(days: -2)))
        #expect(try store.count(matching: shown) == 6)
        #expect(try !store.items(matching: shown).map(\.id).contains(later.id))
        #expect(try store.items(matching: shown).map(\.id).contains(past.id))
        #expect(try store.count(matching: ItemFilter.live) == 7)
        // Done, it waits for nothing: it shows again.
        _ = try store.setDone([later.id], true)
        #expect(try store.count(matching: shown) == 7)
    }

    @Test func aFilteredListKeepsTheListOrderAndItsLimit() throws {
        let store = try StoreFixture.make()
        for index in 0..<10 {
            _ = try store.create(NewItem(kind: .task, title: "task \(index)", tags: index % 2 == 0 ? ["even"] : []))
        }
        let filter = try Filter.parse("+even", calendar: Self.calendar(today: Self.today))
        let all = try store.items(matching: ItemFilter(expression: filter)).map(\.title)
        #expect(all == ["task 8", "task 6", "task 4", "task 2", "task 0"])
        #expect(
            try store.items(matching: ItemFilter(expression: filter), limit: 2).map(\.title) == ["task 8", "task 6"])
    }
}
