import Foundation
import QuireCore
import TerminalUI
import Testing

@testable import QuireUI

/// A project shows where a person reads an item: its list row (after the title, before the
/// tags) and the facts line of the item view and preview.
@Suite struct ProjectDisplayTests {
    let item = Item(
        id: "0190f0e0-0000-7000-8000-000000000001", kind: .task, title: "Mend the fence", tags: ["garden"],
        project: "home.garden", createdAt: Date(timeIntervalSince1970: 1_790_000_000))

    @Test func theListRowShowsTheProjectBeforeTheTags() {
        let row = ItemRow.line(item, width: 60, today: nil).plainText
        #expect(row.contains("Mend the fence home.garden #garden"), "\(row)")
        var none = item
        none.project = nil
        #expect(ItemRow.line(none, width: 60, today: nil).plainText.contains("Mend the fence #garden"))
    }

    @Test func theItemViewNamesTheProject() {
        let lines = ItemDetails.lines(item, today: nil, shownID: "0001").map(\.plainText)
        #expect(lines.contains { $0.hasPrefix("task · home.garden") }, "\(lines)")
    }
}
