import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// `O` sorts the list, `A` shows the agenda: both are queries the store reads page by page.
@Suite struct SortAndAgendaTests {
    @Test func oCyclesThroughTheOrdersAndBackToTheListsOwn() {
        var harness = Harness(size: .standard)
        var seen: [ItemOrder?] = []
        for _ in 0...ItemOrder.allCases.count {
            harness.press(.character("O"))
            seen.append(harness.state.list.query.order)
        }
        #expect(seen == ItemOrder.allCases.map { $0 } + [nil])
        #expect(harness.state.notice?.text == "As listed: pinned, then newest")
    }

    @Test func byDueDateTheSoonestComeFirstAndTheBarSaysSo() throws {
        var harness = Harness(size: .standard)
        harness.press(.character("O"))
        #expect(harness.state.list.query.order == .due)
        let titles = harness.state.list.items.map(\.title)
        #expect(Array(titles.prefix(2)) == ["Buy milk", "Call the plumber"])
        // Pinned items have no privilege in an asked-for order: "Pinned: packing list" has no date.
        let pinned = try #require(titles.firstIndex(of: "Pinned: packing list"))
        #expect(pinned >= 2)
        #expect(harness.text.contains("by due date"))
        #expect(harness.state.notice?.text == "Sorted by due date · O for the next order")
    }

    @Test func theSelectionStaysOnItsItemWhenTheOrderChanges() throws {
        var harness = Harness(size: .standard)
        harness.press(.character("j"), .character("j"))
        let selected = try #require(harness.state.list.selectedID)
        harness.press(.character("O"))
        #expect(harness.state.list.selectedID == selected)
        let index = try #require(harness.state.list.items.firstIndex { $0.id == selected })
        #expect(harness.state.list.selection == harness.state.list.offset + index)
    }

    @Test func aGivesOpenTasksDueWithinTheWeekSoonestFirst() {
        var harness = Harness(size: .standard)
        // Today is 2026-11-22: milk is overdue (11-20), the plumber is due 12-01, nine days out.
        var items = harness.items
        items.append(
            Item(
                id: Fixtures.id(9), kind: .task, title: "Water the plants", due: Day("2026-11-24"),
                createdAt: Fixtures.created, syncState: .synced))
        harness.items = items
        harness.press(.character("A"))
        #expect(harness.state.list.query.viewName == "agenda")
        #expect(harness.state.list.query.order == .due)
        #expect(harness.state.list.items.map(\.title) == ["Buy milk", "Water the plants"])
        #expect(harness.text.contains("view agenda"))
        harness.press(.escape)
        #expect(harness.state.list.query == ListQuery())
    }
}
