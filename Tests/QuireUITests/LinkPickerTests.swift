import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// `L` in the item view: the item's links and the items that link to it; Enter follows one,
/// Backspace comes back.
@Suite struct LinkPickerTests {
    static func note(_ n: Int, _ title: String, _ body: String, kind: ItemKind = .note) -> Item {
        Item(
            id: Fixtures.id(n), kind: kind, title: title, body: body, createdAt: Fixtures.created, rev: 1,
            syncState: .synced)
    }
    static let garden = note(30, "Garden plan", "beds and paths")
    static let spring = note(31, "Spring", "see [[garden plan]] and [[Nowhere]]")
    static let chores = note(32, "Chores", "after [[Spring]]", kind: .task)

    @Test func enterFollowsALinkAndBackspaceComesBack() throws {
        var harness = Harness(size: .standard, items: [Self.garden, Self.spring, Self.chores])
        harness.press(.character("j"))
        #expect(harness.state.list.selectedItem?.id == Self.spring.id, "newest first: Chores, Spring, Garden plan")
        harness.press(.enter, .character("L"))
        let picker = try #require(harness.state.linkPicker)
        #expect(picker.entries?.map(\.text) == ["garden plan", "Nowhere", "Chores"])
        #expect(picker.entries?.map(\.target?.id) == [Self.garden.id, nil, Self.chores.id])
        assertSnapshot(harness.text, named: "link-picker-80x24")

        harness.press(.enter)
        #expect(harness.state.screen == .detail(scroll: 0))
        #expect(harness.state.list.selectedItem?.id == Self.garden.id, "the link's item, in the item view")
        #expect(harness.text.contains("beds and paths"))
        harness.press(.backspace)
        #expect(harness.state.list.selectedItem?.id == Self.spring.id, "back where the link was followed from")
        #expect(harness.state.screen == .detail(scroll: 0))

        harness.press(.character("L"), .character("j"), .enter)
        #expect(harness.state.notice?.text == "[[Nowhere]] reaches no item")
        harness.press(.character("j"), .enter)
        #expect(harness.state.list.selectedItem?.id == Self.chores.id, "a backlink is followed the same way")
        harness.press(.backspace, .backspace)
        #expect(harness.state.notice?.text == "No link followed: L lists this item's links")
        harness.press(.character("L"), .escape)
        #expect(harness.state.screen == .detail(scroll: 0))
        #expect(harness.state.list.selectedItem?.id == Self.spring.id)
    }

    /// A link written by full id (as a typed short id is saved) reads as its item's title in the
    /// rendered text, and follows renames; the raw text (`m`) shows the id.
    @Test func aLinkByIdShowsItsItemsTitle() throws {
        let pointer = Self.note(36, "Pointer", "go to [[\(Self.garden.id)]] now")
        var harness = Harness(size: .standard, items: [Self.garden, pointer])
        #expect(harness.state.list.selectedItem?.id == pointer.id)
        harness.press(.enter)
        #expect(harness.text.contains("go to [[Garden plan]] now"), "\(harness.text)")
        harness.items[0].title = "Beds"
        harness.send(.storeChanged)
        #expect(harness.text.contains("go to [[Beds]] now"), "\(harness.text)")
        harness.items[0].deleted = true
        harness.send(.storeChanged)
        #expect(harness.text.contains("go to [[Beds]] (deleted) now"), "\(harness.text)")
        harness.press(.character("m"))
        #expect(harness.text.contains("go to [[\(Self.garden.id)]] now"), "\(harness.text)")
    }

    /// The item view marks a link that reaches no item, or a deleted one, after its text, and
    /// ends with the items that link here; `L` lists the same, from the same read.
    @Test func theItemViewMarksLinksThatLeadNowhereAndListsBacklinks() throws {
        var old = Self.note(33, "Old plan", "last year's")
        old.deleted = true
        let spring = Self.note(31, "Spring", "see [[garden plan]], [[Nowhere]]\nand [[old plan]] too")
        let summer = Self.note(34, "Summer", "after [[Spring]]")
        var harness = Harness(size: .standard, items: [Self.garden, spring, Self.chores, old, summer])
        harness.press(.character("j"), .character("j"))
        #expect(harness.state.list.selectedItem?.id == spring.id, "newest first: Summer, Chores, Spring")
        harness.press(.enter)
        let text = harness.text
        #expect(text.contains("see [[garden plan]], [[Nowhere]] (missing)"))
        #expect(text.contains("and [[old plan]] (deleted) too"))
        #expect(text.contains("Linked from · L follows"))
        #expect(text.contains("← Summer") && text.contains("← Chores"))
        assertSnapshot(text, named: "detail-links-80x24")
        harness.send(.resized(.small))
        assertSnapshot(harness.text, named: "detail-links-40x12")

        // The marks follow the store: the missing item appears, the deleted one comes back.
        harness.send(.resized(.standard))
        harness.items.append(Self.note(35, "Nowhere", "now somewhere"))
        harness.items = harness.items.map { item in
            var item = item
            if item.id == old.id { item.deleted = false }
            return item
        }
        harness.send(.storeChanged)
        #expect(!harness.text.contains("(deleted)") && !harness.text.contains("(missing)"))

        harness.press(.character("L"))
        #expect(
            harness.state.linkPicker?.entries?.map(\.text) == [
                "garden plan", "Nowhere", "old plan", "Summer", "Chores",
            ])
    }

    @Test func aFilteredListStillReachesTheTarget() throws {
        var harness = Harness(size: .standard, items: [Self.garden, Self.spring, Self.chores])
        harness.press(.character("f"))  // notes only… then tasks only: Garden plan is filtered out
        harness.press(.character("f"))
        #expect(harness.state.list.items.map(\.id) == [Self.chores.id])
        harness.press(.enter, .character("L"), .enter)  // Chores links to Spring
        #expect(harness.state.list.selectedItem?.id == Self.spring.id)
        #expect(harness.state.list.query == ListQuery(), "the unfiltered list holds every live item")
    }
}
