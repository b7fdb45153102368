import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireUI
import TerminalUI
import Testing

@Suite struct RuntimeTests {
    @Test func firstFrameShowsTheStore() throws {
        let app = try AppHarness(items: AppHarness.entries(3))
        #expect(app.lines.filter { $0.contains("Item ") }.count == 3)
        #expect(
            app.lines.last!.hasSuffix("3 pending · Local only · no remote set") || app.lines.last!.contains("pending"))
        #expect(app.backend.frames >= 1)
    }

    @Test func quickCaptureWritesAPendingNote() throws {
        let app = try AppHarness()
        app.press(.character("a"))
        app.type("Hello from the TUI")
        app.press(.tab)
        app.type("line one")
        app.press(.enter)
        app.type("line two")
        app.press(.control("s"))
        let items = try app.store.items()
        #expect(items.count == 1)
        #expect(items[0].title == "Hello from the TUI")
        #expect(items[0].body == "line one\nline two")
        #expect(items[0].syncState == .pending)
        #expect(app.selectedRow?.contains("Hello from the TUI") == true)
        #expect(app.text.contains("Created note"))
    }

    @Test func keysTypedIntoTheTerminalTakeTheInputPath() throws {
        let app = try AppHarness()
        app.backend.type([.character("t")] + "Water the plants".map { .character($0) } + [.control("s")])
        app.runtime.inputAvailable()
        #expect(app.runtime.waitUntilIdle())
        #expect(try app.store.items().map(\.title) == ["Water the plants"])
        #expect(try app.store.items().first?.kind == .task)
    }

    @Test func toggleDonePinDeleteAndUndoReachTheStore() throws {
        let app = try AppHarness(items: [ImportEntry(kind: .task, title: "Pay rent")])
        let id = try app.store.items()[0].id
        app.press(.character("x"))
        #expect(try app.store.item(id)?.done == true)
        #expect(app.text.contains("[x] Pay rent"))
        app.press(.character("p"))
        #expect(try app.store.item(id)?.pinned == true)
        app.press(.character("d"))
        #expect(try app.store.item(id)?.deleted == true)
        #expect(app.text.contains("Nothing here yet"))
        app.press(.character("u"))
        #expect(try app.store.item(id)?.deleted == false)
        app.press(.character("u"), .character("u"))
        let item = try #require(try app.store.item(id))
        #expect(!item.done && !item.pinned)
        #expect(try app.store.history(of: id).count >= 6)
    }

    @Test func onlyChangedCellsAreDrawn() throws {
        let app = try AppHarness(items: AppHarness.entries(30))
        app.press(.character("j"))
        // Two rows change (old and new selection) and the position in the status bar.
        #expect(app.backend.lastUpdateCount > 0)
        #expect(app.backend.lastUpdateCount <= 2 * 80 + 10)
        #expect(app.selectedRow?.contains("Item 29") == true)
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let app = try AppHarness(items: AppHarness.entries(40))
        for _ in 0..<20 { app.runtime.send(.key(.character("j"))) }
        app.runtime.waitUntilIdle()
        app.backend.resize(to: Size(width: 40, height: 12))
        app.runtime.terminalResized()
        app.runtime.waitUntilIdle()
        #expect(app.backend.screen.size == Size(width: 40, height: 12))
        #expect(app.selectedRow?.contains("Item 20") == true)
        app.backend.resize(to: Size(width: 19, height: 5))
        app.runtime.terminalResized()
        app.runtime.waitUntilIdle()
        #expect(app.text.contains("too small"))
        app.backend.resize(to: Size(width: 100, height: 30))
        app.runtime.terminalResized()
        app.runtime.waitUntilIdle()
        #expect(app.selectedRow?.contains("Item 20") == true)
    }

    @Test func aLongListIsReadAPageAtATime() throws {
        let app = try AppHarness(items: AppHarness.entries(3000))
        #expect(app.state.list.total == 3000)
        #expect(app.state.list.items.count < 200)
        app.press(.character("G"))
        #expect(app.selectedRow?.contains("Item 1") == true)
        #expect(app.state.list.items.count < 200)
        app.press(.pageUp, .pageUp)
        #expect(app.state.list.covers(app.state.list.top..<(app.state.list.top + app.state.visibleRows)))
    }

    @Test func searchUsesTheFullTextIndex() throws {
        let app = try AppHarness(items: [
            ImportEntry(title: "Groceries", body: "oat milk and bread"),
            ImportEntry(title: "Reading list", tags: ["books"]),
            ImportEntry(title: "Milkshake recipe"),
        ])
        app.press(.character("/"))
        app.type("mil")
        #expect(app.state.list.total == 2)
        #expect(!app.text.contains("Reading list"))
        app.press(.escape)
        #expect(app.state.list.total == 3)
    }

    @Test func aFailingWriteKeepsTheEditorText() throws {
        let app = try AppHarness(source: { FailingWrites(base: StoreItemSource(store: $0)) })
        app.press(.character("a"))
        app.type("Important thought")
        app.press(.control("s"))
        #expect(app.state.editor?.title.text == "Important thought")
        #expect(app.lines.last!.contains("Could not save: the disk is full"))
        #expect(try app.store.items().isEmpty)
    }

    @Test func filtersAndTagsNarrowTheList() throws {
        let app = try AppHarness(items: [
            ImportEntry(kind: .task, title: "Open task", tags: ["home"]),
            ImportEntry(kind: .task, title: "Done task", done: true),
            ImportEntry(kind: .note, title: "A note", tags: ["home"]),
        ])
        app.press(.character("o"))
        #expect(app.state.list.total == 1)  // open tasks: a note has no checkbox
        app.press(.character("o"))
        #expect(app.state.list.total == 1)
        app.press(.escape, .character("#"))
        app.type("home")
        app.press(.enter)
        #expect(app.state.list.total == 2)
        app.press(.character("f"))
        #expect(app.state.list.total == 1)
        #expect(app.selectedRow?.contains("A note") == true)
    }

    @Test func quitStopsTheRuntime() throws {
        let app = try AppHarness()
        app.press(.character("q"))
        #expect(app.runtime.isStopped)
    }
}

/// A store whose writes fail, as a full disk would make them.
struct FailingWrites: WrappedItemSource {
    let base: any ItemSource
    struct DiskFull: Error, CustomStringConvertible { var description: String { "the disk is full" } }

    func create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values) throws -> Item {
        throw DiskFull()
    }
    func update(_ id: String, fields: [Field: FieldValue]) throws -> Item { throw DiskFull() }
    func save(_ id: String, from before: [Field: FieldValue], to after: [Field: FieldValue]) throws -> SavedWrite {
        throw DiskFull()
    }
    func delete(_ id: String) throws { throw DiskFull() }
    func restore(_ id: String) throws { throw DiskFull() }
    func purge(_ id: String) throws { throw DiskFull() }
    func undoLastAction() throws -> UndoneAction? { throw DiskFull() }
}
