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

    /// `--output` (and `w` in the app) to a link, a pipe or a device writes through it: renaming
    /// a temporary file over the name replaced `/dev/stdout` itself with the file.
    @Test func aCopyWritesThroughALinkAndIntoAPipeAndReplacesNeither() throws {
        let store = try StoreFixture.make()
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let item = try store.create(NewItem(title: "Trip"))
        let source = directory + "/tickets.pdf"
        let bytes = Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: URL(fileURLWithPath: source))
        let hash = try #require(try store.attachFiles(at: [source], to: item.id).files.first).hash

        // A link to a file: the file gets the bytes, the link stays a link.
        let target = directory + "/saved.pdf"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory + "/link.pdf"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try store.attachmentStore.copy(hash, to: link) == .file)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(FileManager.default.contents(atPath: target) == bytes)

        // A pipe (what `/dev/stdout` is in a shell pipeline): its reader gets the bytes, and it
        // is still a pipe. The reader is open first, so opening it to write does not wait, and
        // the 4 kB fit in its buffer.
        let pipe = directory + "/pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = open(pipe, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(try store.attachmentStore.copy(hash, to: pipe) == .stream, "no \"saved\" line among the bytes")
        var status = stat()
        #expect(stat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a pipe")
        var buffer = [UInt8](repeating: 0, count: 8_192)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == bytes.count)
        #expect(Data(buffer.prefix(max(0, count))) == bytes)
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
