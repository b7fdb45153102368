import QuireCore
import QuireUI
import TerminalUI
import Testing

/// Pasted text is text where text is typed, and nothing elsewhere.
@Suite struct PasteTests {
    @Test func aPasteOnTheListRunsNoKeysAndSaysSo() {
        var harness = Harness(size: .standard)
        let before = harness.items
        let selected = harness.state.list.selectedID
        harness.send(.paste("fst dd q"))
        #expect(harness.state.screen == .list)
        #expect(harness.state.prompt == nil && harness.state.list.query == ListQuery())
        #expect(harness.items == before)
        #expect(harness.state.list.selectedID == selected)
        #expect(!harness.state.quitting)
        #expect(harness.text.contains(AppState.pasteIgnoredNotice))
    }

    @Test func aPasteInTheBodyKeepsItsTabsAndLinesInTheBody() {
        var harness = Harness(size: .standard)
        harness.press(.character("a"))
        harness.type("Title")
        harness.press(.tab)
        harness.send(.paste("col a\tcol b\nsecond line"))
        #expect(harness.state.editor?.title.text == "Title")
        #expect(harness.state.editor?.body.text == "col a\tcol b\nsecond line")
        #expect(harness.state.editor?.focus == .body)
        harness.type("!")
        #expect(harness.state.editor?.body.text == "col a\tcol b\nsecond line!")
        harness.press(.control("s"))
        #expect(harness.items.last?.body == "col a\tcol b\nsecond line!")
    }

    @Test func aPasteInAOneLineFieldKeepsEveryCharacterOnTheLine() {
        var harness = Harness(size: .standard)
        harness.press(.character("t"))
        harness.send(.paste("two\nlines\tand a tab"))
        #expect(harness.state.editor?.title.text == "two lines and a tab")
        #expect(harness.state.editor?.focus == .title)
    }

    @Test func aPasteInTheSearchPromptSearches() {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.send(.paste("milk"))
        #expect(harness.state.prompt?.field.text == "milk")
        #expect(harness.state.list.query.search == "milk")
        #expect(harness.state.list.total == 1)
    }

    @Test func aLargePasteIsOneSplice() {
        var area = TextArea("start end")
        for _ in 0..<6 { area.moveRight() }
        let pasted = String(repeating: "x", count: 200_000) + "\n" + String(repeating: "y", count: 10)
        area.insert(pasted)
        #expect(area.text == "start " + pasted + "end")
        #expect(area.line == 1 && area.column == 10)
        #expect(area.utf8Count == area.text.utf8.count)
    }
}

/// The search and tag prompts: moving to the ends, and a tag prompt that replaces its tag.
@Suite struct PromptTests {
    @Test func homeAndEndMoveToTheEndsOfThePrompt() {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.type("ilk")
        harness.press(.home)
        harness.type("m")
        #expect(harness.state.prompt?.field.text == "milk")
        harness.press(.control("a"), .control("e"))
        harness.type("s")
        #expect(harness.state.prompt?.field.text == "milks")
        harness.press(.control("a"))
        harness.type(">")
        harness.press(.end)
        harness.type("<")
        #expect(harness.state.prompt?.field.text == ">milks<")
    }

    @Test func typingInTheTagPromptReplacesTheTagShown() {
        var harness = Harness(size: .standard)
        harness.press(.character("#"))
        harness.type("home")
        harness.press(.enter)
        #expect(harness.state.list.query.tag == "home")
        // Opened again: the tag is shown, and typing starts a new one.
        harness.press(.character("#"))
        #expect(harness.state.prompt?.field.text == "home")
        harness.type("work")
        #expect(harness.state.prompt?.field.text == "work")
        harness.press(.enter)
        #expect(harness.state.list.query.tag == "work")
        // Moving the cursor first keeps it, to edit.
        harness.press(.character("#"), .end)
        harness.type("s")
        #expect(harness.state.prompt?.field.text == "works")
        harness.press(.escape)
        // Backspace clears the tag as it opened.
        harness.press(.character("#"), .backspace)
        #expect(harness.state.prompt?.field.text == "")
    }
}

/// Ctrl-Z hands the terminal to the shell from any screen; Tab moves between title and body
/// whichever way the editor opened.
@Suite struct SuspendAndTabTests {
    @Test func ctrlZSuspendsFromEveryScreen() {
        var harness = Harness(size: .standard)
        #expect(harness.state.update(.key(.control("z"))) == [.suspendToShell])
        harness.press(.character("a"))
        #expect(harness.state.update(.key(.control("z"))) == [.suspendToShell])
        #expect(harness.state.editor != nil)
        harness.press(.escape, .character("?"))
        #expect(harness.state.update(.key(.control("z"))) == [.suspendToShell])
        harness.press(.escape, .character("/"))
        #expect(harness.state.update(.key(.control("z"))) == [.suspendToShell])
        #expect(harness.state.prompt != nil)
    }

    @Test func tabMovesBetweenTitleAndBodyInTheEditEditor() {
        var harness = Harness(size: .standard)
        harness.press(.character("e"))
        #expect(harness.state.editor?.focus == .body)
        harness.press(.tab)
        #expect(harness.state.editor?.focus == .title)
        harness.press(.tab)
        #expect(harness.state.editor?.focus == .body)
    }
}
