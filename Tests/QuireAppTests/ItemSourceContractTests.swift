import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireUI
import Testing

/// One contract, two sources: whatever the UI tests learn from the in-memory source must hold
/// for SQLite, which the app runs on. A rule that differs between them fails here.
@Suite struct ItemSourceContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case inMemory
        case sqlite

        var testDescription: String { rawValue }

        /// A fresh, empty source; the store behind the SQLite one is a real temporary file.
        func make() throws -> any ItemSource {
            switch self {
            case .inMemory: InMemoryItemSource(environment: .deterministic(seed: 3))
            case .sqlite: StoreItemSource(store: try AppDatabase.temporary(environment: .deterministic(seed: 3)))
            }
        }
    }

    /// A note, an open task and a done task, created in that order.
    private func threeItems(_ source: any ItemSource) throws -> (note: Item, open: Item, done: Item) {
        let note = try source.create(kind: .note, title: "A note", body: "about milk")
        let open = try source.create(kind: .task, title: "Buy milk", body: "")
        var done = try source.create(kind: .task, title: "Paid rent", body: "")
        done = try source.update(done.id, fields: [.done: .bool(true)])
        return (note, open, done)
    }

    private func ids(_ source: any ItemSource, _ query: ListQuery) throws -> [String] {
        try source.page(query, offset: 0, limit: 100).items.map(\.id)
    }

    /// A note has no checkbox: the open and done filters are tasks alone, in memory and in SQLite.
    @Test(arguments: Kind.allCases) func onlyTasksAreOpenOrDone(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, done) = try threeItems(source)
        #expect(try ids(source, ListQuery(status: .open)) == [open.id])
        #expect(try ids(source, ListQuery()) == [done.id, open.id, note.id])
        #expect(try ids(source, ListQuery(status: .done)) == [done.id])
        #expect(try ids(source, ListQuery(kind: .task, status: .open)) == [open.id])
        #expect(try ids(source, ListQuery(kind: .note, status: .done)) == [])
    }

    /// A task waiting until a later day is hidden from the list, in memory and in SQLite,
    /// until a search asks about waiting; one whose day has come shows.
    @Test(arguments: Kind.allCases) func aWaitingTaskIsHiddenUntilASearchAsksForIt(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, done) = try threeItems(source)
        let later = try source.create(kind: .task, title: "Renew passport", body: "")
        _ = try source.update(later.id, fields: [.wait: .string("2999-01-01")])
        _ = try source.update(open.id, fields: [.wait: .string("2000-01-01")])
        #expect(try ids(source, ListQuery()) == [done.id, open.id, note.id])
        #expect(try source.page(ListQuery(), offset: 0, limit: 100).total == 3)
        var waiting = ListQuery()
        try waiting.search("status:waiting", calendar: .utc(today: Day("2026-11-26")!))
        #expect(try ids(source, waiting) == [later.id])
    }

    @Test(arguments: Kind.allCases) func newestFirstPinnedBeforeAll(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, done) = try threeItems(source)
        #expect(try ids(source, ListQuery()) == [done.id, open.id, note.id])
        _ = try source.update(note.id, fields: [.pinned: .bool(true)])
        let window = try source.page(ListQuery(), offset: 1, limit: 1)
        #expect(window.items.map(\.id) == [done.id])
        #expect(window.total == 3)
        #expect(try source.index(of: note.id, in: ListQuery(), near: 2) == 0)
        #expect(try source.index(of: note.id, in: ListQuery(kind: .task), near: 0) == nil)
    }

    @Test(arguments: Kind.allCases) func writesLeaveItemsPendingAndMoveTheDataVersion(_ kind: Kind) throws {
        let source = try kind.make()
        let before = try source.dataVersion()
        let item = try source.create(kind: .task, title: "Call the plumber", body: "")
        #expect(item.syncState == .pending)
        #expect(try source.dataVersion() != before)
        let edited = try source.update(item.id, fields: [.title: .string("Call the electrician")])
        #expect(edited.title == "Call the electrician")
        #expect(try source.item(item.id)?.title == "Call the electrician")
        #expect(try source.counts().pending == 1)
    }

    @Test(arguments: Kind.allCases) func deleteKeepsATombstoneThatRestoreBringsBack(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, _, _) = try threeItems(source)
        try source.delete(note.id)
        #expect(try source.item(note.id)?.deleted == true)
        #expect(try !ids(source, ListQuery()).contains(note.id))
        try source.restore(note.id)
        #expect(try source.item(note.id)?.deleted == false)
        #expect(try ids(source, ListQuery()).contains(note.id))
    }

    /// The list's query for `/` followed by `text`.
    func searching(_ text: String) throws -> ListQuery {
        var query = ListQuery()
        try query.search(text, calendar: .utc(today: Day("2026-11-26")!))
        return query
    }

    /// A search is a filter: terms narrow the words' matches, and a filter without free words
    /// lists its matches in list order.
    @Test(arguments: Kind.allCases) func aSearchIsAFilter(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, done) = try threeItems(source)
        #expect(try ids(source, searching("milk kind:task")) == [open.id])
        #expect(try Set(ids(source, searching("kind:task"))) == [open.id, done.id])
        #expect(try Set(ids(source, searching("milk or status:done"))) == [note.id, open.id, done.id])
        #expect(try ids(source, searching("-milk kind:note")) == [note.id])
    }

    @Test(arguments: Kind.allCases) func searchFindsWordsInTitlesAndBodies(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, _) = try threeItems(source)
        #expect(try Set(ids(source, searching("milk"))) == [note.id, open.id])
        #expect(try ids(source, searching("rent")).count == 1)
    }

    /// A search's pages are read from the matches found once, and a write anywhere (here a
    /// new match, then an edit that takes one away) is in the very next page asked for.
    @Test(arguments: Kind.allCases) func searchPagesFollowEveryWrite(_ kind: Kind) throws {
        let source = try kind.make()
        let (note, open, _) = try threeItems(source)
        let query = try searching("milk")
        #expect(try source.page(query, offset: 1, limit: 1).total == 2)
        let added = try source.create(kind: .note, title: "Milk prices", body: "")
        let page = try source.page(query, offset: 0, limit: 10)
        #expect(page.total == 3 && Set(page.items.map(\.id)) == [note.id, open.id, added.id])
        _ = try source.update(open.id, fields: [.title: .string("Buy bread")])
        #expect(try Set(ids(source, query)) == [note.id, added.id])
        #expect(try source.index(of: added.id, in: query, near: 0) != nil)
        #expect(try source.index(of: open.id, in: query, near: 0) == nil)
    }

    @Test(arguments: Kind.allCases) func badInputChangesNothing(_ kind: Kind) throws {
        let source = try kind.make()
        let item = try source.create(kind: .task, title: "Keep me", body: "")
        let version = try source.dataVersion()
        #expect(throws: (any Error).self) { try source.create(kind: .note, title: "   ", body: "") }
        #expect(throws: (any Error).self) { try source.update(item.id, fields: [.priority: .string("urgent")]) }
        #expect(throws: (any Error).self) { try source.update("0193a9d2-0000-7000-8000-000000000000", fields: [:]) }
        #expect(try source.item(item.id) == item)
        #expect(try source.dataVersion() == version)
        #expect(try source.nextNeedingReview(after: nil) == nil)
    }
}
