import Foundation
import QuireCore
import Testing

@testable import QuireStore

/// Where a file stands as the store tells it: a download under way shows how far it got, from
/// the partial file it writes, and attaching by path checks everything before copying anything.
@Suite struct AttachmentStateTests {
    @Test func aPartialDownloadShowsItsShareAndTheWholeFileIsHere() throws {
        let store = try StoreFixture.make()
        let item = try store.create(NewItem(title: "Trip"))
        let file = AttachedFile(
            name: "map.png", size: 400, mediaType: "image/png", hash: String(repeating: "a", count: 64))
        try store.attach([file], to: item.id)
        #expect(try store.attachmentStates(of: [file]) == [.waitingToDownload])
        let partial = try store.attachmentStore.openPartial(file.hash, keeping: 0)
        try partial.write(contentsOf: Data(count: 100))
        try partial.close()
        #expect(try store.attachmentStates(of: [file]) == [.downloading(percent: 25)])
        #expect(AttachmentState.downloading(percent: 25).description == "downloading 25%")
        #expect(AttachmentState.downloading(percent: 25).isMoving)
        #expect(!AttachmentState.refused(reason: "too large").isMoving)
    }

    @Test func attachingByPathChecksEveryPathFirstAndChangesNothingOnABadOne() throws {
        let store = try StoreFixture.make()
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let item = try store.create(NewItem(title: "Trip"))
        let good = directory + "/tickets.pdf"
        try Data("tickets".utf8).write(to: URL(fileURLWithPath: good))
        #expect(throws: AttachFileError.notFound("no such file: \(directory)/nope.pdf")) {
            try store.attachFiles(at: [good, directory + "/nope.pdf"], to: item.id)
        }
        #expect(throws: AttachFileError.badInput("\(directory) is a directory, not a file")) {
            try store.attachFiles(at: [directory], to: item.id)
        }
        #expect(try store.item(item.id)?.attachments == [])
        #expect(store.attachmentStore.hashes().isEmpty, "nothing copied")
        let attached = try store.attachFiles(at: [good], to: item.id)
        #expect(attached.item.attachments.map(\.name) == ["tickets.pdf"])
        #expect(store.attachmentStore.contains(attached.files[0].hash))
    }
}
