import Foundation
import QuireCore
import QuireUI
import TerminalUI
import Testing

/// Ticking a note's task boxes from the item view (SPEC: Markdown): `]`/`[` pick, `b` ticks,
/// as an edit from the text on screen.
@Suite struct TaskBoxViewTests {
    static let note = Item(
        id: Fixtures.id(20), kind: .note, title: "Weekend", body: "- [ ] call mom\n```\n- [ ] code\n```\n- [x] bread",
        createdAt: Fixtures.created.addingTimeInterval(60), rev: 1, syncState: .synced)

    @Test func bracketsPickABoxAndBTicksIt() throws {
        var harness = Harness(size: .standard, items: [Self.note])
        #expect(harness.state.list.selectedItem?.id == Self.note.id)
        harness.press(.enter, .character("]"), .character("]"))
        #expect(harness.state.notice?.text == "Task box 2/2: [x] bread · x ticks it", "x on a note")
        harness.press(.character("b"))
        #expect(harness.items.last?.body == "- [ ] call mom\n```\n- [ ] code\n```\n- [ ] bread")
        #expect(harness.state.screen == .detail(scroll: 0), "the view stays")
        harness.press(.character("["), .character("b"))
        #expect(harness.items.last?.body == "- [x] call mom\n```\n- [ ] code\n```\n- [ ] bread")
        harness.press(.character("u"))
        #expect(harness.items.last?.body == "- [ ] call mom\n```\n- [ ] code\n```\n- [ ] bread", "u undoes a tick")
    }

    /// A note has no checkbox of its own, so `x` (done on a task) ticks the selected box there,
    /// and the hint bar offers it as `tick`; a note without boxes offers neither.
    @Test func xTicksABoxOfANote() throws {
        var harness = Harness(size: .standard, items: [Self.note])
        harness.press(.enter)
        #expect(harness.text.contains("x tick"), "\(harness.text)")
        #expect(!harness.text.contains("x done"))
        harness.press(.character("x"))
        #expect(harness.items.last?.body == "- [x] call mom\n```\n- [ ] code\n```\n- [x] bread", "the first box")
        harness.press(.character("]"))
        #expect(harness.state.notice?.text == "Task box 2/2: [x] bread · x ticks it")
        harness.press(.character("x"))
        #expect(harness.items.last?.body == "- [x] call mom\n```\n- [ ] code\n```\n- [ ] bread")
        #expect(harness.state.screen == .detail(scroll: 0), "the view stays")

        var other = Harness(
            size: .standard,
            items: [
                Item(
                    id: Fixtures.id(22), kind: .note, title: "Words", body: "just words",
                    createdAt: Fixtures.created.addingTimeInterval(120), rev: 1, syncState: .synced)
            ])
        other.press(.enter)
        #expect(!other.text.contains("x tick") && !other.text.contains("x done"), "\(other.text)")
    }

    @Test func anItemWithoutBoxesSaysSo() {
        var harness = Harness(size: .standard)
        harness.press(.enter, .character("b"))
        #expect(harness.state.notice?.text == "No task boxes (- [ ]) in this text")
    }
}
