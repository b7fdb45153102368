import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// Every screen as text at 80x24, 120x40 and 40x12.
@Suite struct ScreenSnapshotTests {
    @Test(arguments: Size.all)
    func list(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("j"))
        assertSnapshot(harness.text, named: "list-\(size)")
    }

    @Test(arguments: Size.all)
    func listSelectingWideCharacters(size: Size) {
        var harness = Harness(size: size)
        for _ in 0..<5 { harness.press(.character("j")) }
        #expect(harness.state.list.selectedItem?.title == "日本語のメモ")
        assertSnapshot(harness.text, named: "list-wide-\(size)")
    }

    /// The trash with one deleted item selected.
    @Test(arguments: Size.all)
    func trash(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("j"), .character("d"), .character("T"))
        assertSnapshot(harness.text, named: "trash-\(size)")
    }

    @Test(arguments: Size.all)
    func emptyList(size: Size) {
        let harness = Harness(size: size, items: [])
        assertSnapshot(harness.text, named: "empty-\(size)")
    }

    @Test(arguments: Size.all)
    func search(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("/"))
        harness.type("no")
        assertSnapshot(harness.text, named: "search-\(size)")
    }

    @Test(arguments: Size.all)
    func detail(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("j"), .character("j"), .character("j"), .character("j"), .enter)
        assertSnapshot(harness.text, named: "detail-\(size)")
    }

    @Test(arguments: Size.all)
    func newNoteEditor(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("a"))
        harness.type("Groceries 買い物")
        harness.press(.tab)
        harness.type("eggs, flour and a very long line that has to wrap around at the edge of the screen")
        harness.press(.enter)
        harness.type("🙂 done")
        assertSnapshot(harness.text, named: "editor-\(size)")
    }

    @Test(arguments: Size.all)
    func help(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("?"))
        assertSnapshot(harness.text, named: "help-\(size)")
    }

    @Test(arguments: Size.all)
    func syncStatus(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("S"))
        assertSnapshot(harness.text, named: "sync-status-\(size)")
    }

    @Test(arguments: Size.all)
    func discardQuestion(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("t"))
        harness.type("Half-typed task")
        harness.press(.escape)
        assertSnapshot(harness.text, named: "discard-\(size)")
    }

    @Test(arguments: [Size(width: 19, height: 6), Size(width: 60, height: 5)])
    func tooSmall(size: Size) {
        let harness = Harness(size: size)
        assertSnapshot(harness.text, named: "too-small-\(size)")
        #expect(harness.text.contains("terminal too small") || harness.text.contains("too small"))
    }
}
