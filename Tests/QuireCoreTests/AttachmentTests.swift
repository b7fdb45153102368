import Foundation
import Testing

@testable import QuireCore

/// Attachment references: one line each on the wire, a set in the item, merged as tags are.
@Suite struct AttachmentTests {
    let created = Date(timeIntervalSince1970: 1_790_000_000)
    let hashA = String(repeating: "ab", count: 32)
    let hashB = String(repeating: "cd", count: 32)

    func file(_ name: String, _ hash: String, size: Int64 = 10) -> AttachedFile {
        AttachedFile(name: name, size: size, mediaType: Attachments.mediaType(forName: name), hash: hash)
    }

    @Test func aReferenceReadsBackFromItsLineWithSpacesInTheName() throws {
        let plain = file("photo of the sink.jpg", hashA, size: 1_234_567)
        #expect(plain.wireText == "\(hashA) 1234567 image/jpeg - photo of the sink.jpg")
        #expect(AttachedFile(wireText: plain.wireText) == plain)
        var sealed = plain
        sealed.wrappedKey = "c2VhbGVk"
        #expect(AttachedFile(wireText: sealed.wireText) == sealed, "the wrapped key travels in the reference")
        for bad in [
            "", "\(hashA) 12 image/png -", "XYZ 12 image/png - a.png", "\(hashA) -1 image/png - a.png",
            "\(hashA) 12 image/png - a/b.png", "\(hashA) 12 image/png - a\nb", "\(hashA.uppercased()) 1 a/b - x",
        ] {
            #expect(AttachedFile(wireText: bad) == nil, "\(bad)")
        }
    }

    @Test func anItemHoldsASetAndChecksWhatOpsSet() throws {
        var item = Item(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "Trip", createdAt: created)
        let a = file("tickets.pdf", hashA)
        let b = file("map.png", hashB)
        try item.set(.attachments, to: .strings([a.wireText, b.wireText, a.wireText]), now: created)
        #expect(item.attachments == [b, a], "sorted by name, once each")
        #expect(item.value(of: .attachments) == .strings([b.wireText, a.wireText]))
        #expect(throws: ValidationError.invalidAttachment("nonsense")) {
            try item.set(.attachments, to: .strings(["nonsense"]), now: created)
        }
        try item.set(.attachments, to: .null, now: created)
        #expect(item.attachments.isEmpty)
    }

    @Test func twoDevicesAttachingAndDetachingMergeAsASet() {
        let a = file("tickets.pdf", hashA)
        let b = file("map.png", hashB)
        let c = file("receipt.pdf", String(repeating: "ef", count: 32))
        let base = Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "Trip", attachments: [a], createdAt: created, rev: 3)
        var local = base
        local.attachments = [a, b]
        var remote = base
        remote.attachments = [c]
        remote.rev = 4
        let merge = ItemMerge(base: base, local: local, remote: remote)
        #expect(!merge.needsReview, "attachments never conflict")
        #expect(merge.item.attachments == [b, c], "local added b, remote removed a and added c")
    }

    @Test func hasAttachmentFilters() throws {
        let calendar = FilterCalendar.utc(today: Day("2026-11-26")!)
        let filter = try Filter.parse("has:attachment", calendar: calendar)
        let bare = Item(id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "Trip", createdAt: created)
        var with = bare
        with.attachments = [file("a.txt", hashA)]
        #expect(filter.admits(with))
        #expect(!filter.admits(bare))
        #expect(throws: Filter.Failure.self) { try Filter.parse("has:files", calendar: calendar) }
    }

    @Test func mediaTypesComeFromTheExtension() {
        #expect(Attachments.mediaType(forName: "Report.PDF") == "application/pdf")
        #expect(Attachments.mediaType(forName: "notes") == "application/octet-stream")
        #expect(Attachments.mediaType(forName: ".bashrc") == "application/octet-stream")
    }
}
