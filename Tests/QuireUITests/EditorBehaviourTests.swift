import QuireCore
import QuireUI
import TerminalUI
import Testing

@Suite struct EditorBehaviourTests {
    @Test func quickCaptureCreatesANoteAndSelectsIt() {
        var harness = Harness(size: .standard)
        harness.press(.character("a"))
        #expect(harness.state.editor?.focus == .title)
        harness.type("Call mum")
        harness.press(.enter)
        #expect(harness.state.editor?.focus == .body)
        harness.type("about Sunday")
        harness.press(.control("s"))
        #expect(harness.state.screen == .list)
        let created = harness.items.last!
        #expect(created.title == "Call mum" && created.body == "about Sunday" && created.kind == .note)
        #expect(harness.state.list.selectedID == created.id)
        harness.press(.character("u"))
        #expect(harness.items.last!.deleted)
    }

    @Test func tIsATask() {
        var harness = Harness(size: .standard)
        harness.press(.character("t"))
        harness.type("Water plants")
        harness.press(.control("s"))
        #expect(harness.items.last?.kind == .task)
        #expect(harness.text.contains("[ ] Water plants"))
    }

    @Test func editingAnItemSavesOnlyWhatChanged() {
        var harness = Harness(size: .standard)
        harness.press(.character("e"))  // the pinned packing list
        #expect(harness.state.editor?.focus == .body)
        harness.press(.enter)
        harness.type("toothbrush")
        harness.press(.control("s"))
        guard
            case .write(.edit(let id, let before, let after))? = harness.effects.last(where: {
                if case .write = $0 { true } else { false }
            })
        else {
            Issue.record("no edit written")
            return
        }
        #expect(id == Fixtures.id(7))
        #expect(Set(after.keys) == [.body])
        #expect(before[.body] == .string("passport\ncharger\nsocks"))
        #expect(harness.items.first { $0.id == id }?.body == "passport\ncharger\nsocks\ntoothbrush")
    }

    @Test func anEmptyTitleIsRefusedAndTheTextKept() {
        var harness = Harness(size: .standard)
        harness.press(.character("a"), .tab)
        harness.type("body only")
        harness.press(.control("s"))
        #expect(harness.state.editor?.body.text == "body only")
        #expect(harness.text.contains("Cannot save: the title is empty"))
    }

    @Test func aFailedWriteKeepsTheEditorAndItsText() {
        var state = AppState(size: .standard, today: Fixtures.today)
        _ = state.start()
        _ = state.update(.key(.character("a")))
        for character in "Draft" { _ = state.update(.key(.character(character))) }
        let effects = state.update(.key(.control("s")))
        #expect(effects == [.write(.create(kind: .note, title: "Draft", body: ""))])
        #expect(state.editor?.saving == true)
        _ = state.update(.key(.character("x")))  // ignored while saving
        _ = state.update(.written(.create(kind: .note, title: "Draft", body: ""), .failure(WriteFailure("disk full"))))
        #expect(state.editor?.title.text == "Draft")
        #expect(state.editor?.saving == false)
        #expect(state.render().buffer.text.contains("Could not save: disk full"))
    }

    @Test func escapeAsksBeforeDroppingChanges() {
        var harness = Harness(size: .standard)
        harness.press(.character("a"))
        harness.type("Unsaved")
        harness.press(.escape)
        #expect(harness.state.question == .discardChanges)
        harness.press(.character("n"))
        #expect(harness.state.editor?.title.text == "Unsaved")
        harness.press(.escape, .character("y"))
        #expect(harness.state.screen == .list)
        #expect(!harness.items.contains { $0.title == "Unsaved" })
    }

    @Test func escapeWithoutChangesLeavesAtOnce() {
        var harness = Harness(size: .standard)
        harness.press(.character("e"), .escape)
        #expect(harness.state.screen == .list)
        #expect(harness.state.question == nil)
    }

    @Test func theCursorFollowsTypingAndWrapping() {
        var harness = Harness(size: Size(width: 20, height: 8))
        harness.press(.character("a"))
        harness.type("T")
        #expect(harness.frame.cursor == Point(x: 10, y: 1))
        harness.press(.down)
        harness.type("#home")
        #expect(harness.frame.cursor == Point(x: 9 + 5, y: 2))
        harness.press(.tab)
        harness.type("one two three four")
        // wrap width is 20 - 2 - 1 = 17: "one two three " then "four"
        #expect(harness.frame.cursor == Point(x: 1 + 4, y: 5))
        harness.press(.up)
        #expect(harness.frame.cursor == Point(x: 1 + 4, y: 4))
        harness.press(.home)
        #expect(harness.frame.cursor == Point(x: 1, y: 4))
        harness.press(.up)
        #expect(harness.state.editor?.focus == .details)
    }

    @Test func theBodyScrollsToKeepTheCursorVisible() {
        var harness = Harness(size: Size(width: 30, height: 8))
        harness.press(.character("a"), .tab)
        for n in 1...12 {
            harness.type("line \(n)")
            harness.press(.enter)
        }
        let body = harness.state.editorLayout.body
        let cursor = harness.frame.cursor!
        #expect(cursor.y >= body.y && cursor.y < body.maxY)
        #expect(harness.text.contains("line 12"))
        #expect(!harness.text.contains("line 1\n"))
        // The body shows 3 rows at this height: a page is 2.
        for _ in 1...6 { harness.press(.pageUp) }
        #expect(harness.text.contains("line 1\n") || harness.text.hasSuffix("line 1"))
    }
}

/// The details line: tags, due date and priority written in the built-in editor.
@Suite struct EditorDetailsTests {
    @Test func aNewTaskTakesTagsDueAndPriority() throws {
        var harness = Harness(size: .standard)
        harness.press(.character("t"))
        harness.type("File taxes")
        harness.press(.down)
        #expect(harness.state.editor?.focus == .details)
        harness.type("#money due 2026-12-01 priority high")
        harness.press(.control("s"))
        let created = try #require(harness.items.last)
        #expect(created.title == "File taxes" && created.tags == ["money"])
        #expect(created.due == Day("2026-12-01") && created.priority == .high)
    }

    @Test func editingChangesOnlyTheDetailsThatChanged() throws {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.type("milk")
        harness.press(.enter)
        let id = try #require(harness.state.list.selectedID)
        harness.press(.character("e"))
        #expect(harness.state.editor?.details.text == "#home due 2026-11-20 priority high")
        // Another device adds a tag meanwhile; this edit must not take it away.
        harness.items = harness.items.map { item in
            var item = item
            if item.id == id { item.tags = ["home", "shop"] }
            return item
        }
        harness.press(.up)  // body's first row → details
        #expect(harness.state.editor?.focus == .details)
        harness.press(.control("k"))
        harness.press(.control("a"), .control("k"))
        harness.type("#home priority low")
        harness.press(.control("s"))
        guard
            case .write(.edit(_, let before, let after))? = harness.effects.last(where: {
                if case .write = $0 { true } else { false }
            })
        else {
            Issue.record("no edit written")
            return
        }
        #expect(after == [.due: .null, .priority: .string("low")])
        #expect(before == [.due: .string("2026-11-20"), .priority: .string("high")])
        let item = try #require(harness.items.first { $0.id == id })
        #expect(item.tags == ["home", "shop"] && item.due == nil && item.priority == .low)
    }

    @Test func aDetailsLineThatCannotBeReadIsRefusedAndKept() {
        var harness = Harness(size: .standard)
        harness.press(.character("a"))
        harness.type("Idea")
        harness.press(.down)
        harness.type("#x due tomorrow")
        harness.press(.control("s"))
        #expect(harness.state.notice?.text == "Cannot save: only tasks have a due date")
        #expect(harness.state.editor?.details.text == "#x due tomorrow")
        #expect(harness.state.editor?.focus == .details)
        #expect(harness.items.allSatisfy { $0.title != "Idea" })
    }

    /// "Changed" follows the text: not after opening a note, yes after an edit, no again once
    /// the edit is taken back, and yes for kept text that differs from the item.
    @Test func changedFollowsTheTextWhateverTheBodyWasMadeFrom() {
        var harness = Harness(size: .standard)
        harness.press(.character("e"))
        #expect(harness.state.editor?.hasChanges == false)
        harness.type("!")
        #expect(harness.state.editor?.hasChanges == true)
        harness.press(.backspace)
        #expect(harness.state.editor?.hasChanges == false)
        let kept = EditorState(
            restoring: Fixtures.id(7), kind: .note, title: "Pinned: packing list", body: "passport",
            originalTitle: "Pinned: packing list", originalBody: "passport\ncharger\nsocks")
        #expect(kept.hasChanges)
    }
}
