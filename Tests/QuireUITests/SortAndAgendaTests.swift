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

    /// The agenda's rows under a heading for each day, as `quire agenda` prints them.
    @Test func theAgendaHasAHeadingForEachDay() throws {
        var harness = Harness(size: .standard)
        func task(_ n: Int, _ title: String, _ due: String, priority: Priority = .none) -> Item {
            Item(
                id: Fixtures.id(n), kind: .task, title: title, due: Day(due), priority: priority,
                createdAt: Fixtures.created, syncState: .synced)
        }
        // Today is Sunday 2026-11-22; milk (11-20) is overdue.
        var water = task(11, "Water the plants", "2026-11-24")
        water.recur = Recurrence("weekly")
        harness.items += [
            task(9, "Call mom", "2026-11-22"), task(10, "Pay rent", "2026-11-23", priority: .high), water,
            task(12, "Book train tickets", "2026-11-24"), task(13, "Renew passport", "2026-11-19"),
        ]
        harness.press(.character("A"))
        let text = harness.text
        #expect(text.contains("↺ Water the plants"), "a recurring task is marked")
        for heading in ["Overdue", "Today · Sun 2026-11-22", "Tomorrow · Mon 2026-11-23", "Tue 2026-11-24"] {
            #expect(text.components(separatedBy: heading).count == 2, "one \(heading) heading")
        }
        assertSnapshot(text, named: "agenda-80x24")
        harness.send(.resized(.small))
        assertSnapshot(harness.text, named: "agenda-40x12")
        // Down to the last task: the headings above it never push it off the screen.
        harness.press(.character("G"))
        let last = try #require(harness.state.list.selectedItem?.title)
        #expect(harness.text.contains(String(last.prefix(12))), "\(harness.text)")
        assertSnapshot(harness.text, named: "agenda-bottom-40x12")
    }
}
