import Foundation
import QuireCore
import TerminalUI
import Testing

@testable import QuireUI

/// Attachments show where a person reads an item: a paperclip in its list row, and a line per
/// file (name and size) in the item view and preview.
@Suite struct AttachmentDisplayTests {
    let item = Item(
        id: "0190f0e0-0000-7000-8000-000000000001", title: "Trip to Lyon",
        attachments: [
            AttachedFile(
                name: "tickets.pdf", size: 1_234_567, mediaType: "application/pdf",
                hash: String(repeating: "ab", count: 32)),
            AttachedFile(name: "map.png", size: 900, mediaType: "image/png", hash: String(repeating: "cd", count: 32)),
        ],
        createdAt: Date(timeIntervalSince1970: 1_790_000_000))

    @Test func theListRowShowsAPaperclipOnlyWhenFilesAreAttached() {
        #expect(ItemRow.line(item, width: 60, today: nil).plainText.contains("📎 Trip to Lyon"))
        var bare = item
        bare.attachments = []
        #expect(!ItemRow.line(bare, width: 60, today: nil).plainText.contains("📎"))
    }

    @Test func theItemViewListsEachFileWithItsSize() {
        let lines = ItemDetails.lines(item, today: nil, shownID: "0001").map(\.plainText)
        #expect(lines.contains("📎 map.png  900 B"), "\(lines)")
        #expect(lines.contains("📎 tickets.pdf  1.2 MB"), "\(lines)")
    }
}
