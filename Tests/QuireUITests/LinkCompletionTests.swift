import Foundation
import QuireCore
import QuireUI
import TerminalUI
import Testing

/// Tab after `[[` in the editor's body completes a title, as Tab completes a tag in the tag
/// prompt: one title closes the link, several fill what they share and are listed.
@Suite struct LinkCompletionTests {
    static let items = [
        LinkPickerTests.note(30, "Garden plan", "beds"), LinkPickerTests.note(31, "Garage", "tools"),
        LinkPickerTests.note(32, "Weekly [review]", "notes"), LinkPickerTests.note(33, "Old garden", "gone"),
    ].map { item -> Item in
        var item = item
        item.deleted = item.title == "Old garden"
        return item
    }

    @Test func tabAfterBracketsCompletesATitle() throws {
        var harness = Harness(size: .standard, items: Self.items)
        harness.press(.character("a"))
        harness.type("Spring")
        harness.press(.tab)
        harness.type("see [[gard")
        harness.press(.tab)
        #expect(harness.state.editor?.body.text == "see [[Garden plan]]", "one title: the link is closed")
        #expect(harness.state.editor?.focus == .body)
        harness.type(" and [[ga")
        harness.press(.tab)
        #expect(harness.state.editor?.body.text == "see [[Garden plan]] and [[Gar", "what Garage and Garden share")
        #expect(harness.state.notice?.text == "[[Garage]] [[Garden plan]]")
        harness.type("a")
        harness.press(.tab)
        #expect(harness.state.editor?.body.text == "see [[Garden plan]] and [[Garage]]")

        // Nothing matches (a deleted item's title is no candidate): said so, the text kept.
        harness.type(" [[old")
        harness.press(.tab)
        #expect(harness.state.notice?.text == "No title starts with “old”")
        #expect(harness.state.editor?.body.text == "see [[Garden plan]] and [[Garage]] [[old")
        #expect(harness.state.editor?.focus == .body)

        // Outside a link Tab still moves to the title.
        harness.type("]] x")
        harness.press(.tab)
        #expect(harness.state.editor?.focus == .title)
    }

    @Test func aClosingPairAlreadyTypedIsSteppedOver() throws {
        var harness = Harness(size: .standard, items: Self.items)
        harness.press(.character("a"), .tab)
        harness.type("[[]] after")
        for _ in 0..<8 { harness.press(.left) }
        harness.type("gara")
        harness.press(.tab)
        #expect(harness.state.editor?.body.text == "[[Garage]] after")
        harness.type("!")
        #expect(harness.state.editor?.body.text == "[[Garage]]! after", "the cursor after the closing brackets")
    }
}
