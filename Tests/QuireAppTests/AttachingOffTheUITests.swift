import Dispatch
import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireTestSupport
import QuireUI
import Synchronization
import TerminalUI
import Testing

/// A file's bytes are hashed and copied off the UI queue: attaching a large file from the item
/// view reads and writes all of it, and a key pressed meanwhile is drawn at once.
@Suite struct AttachingOffTheUITests {
    /// The store's attachments, whose attaching waits for the test's word (as a 100 MB file's
    /// hashing and copying would take its time), at most ten seconds.
    final class HeldAttachments: AttachmentSource {
        let source: StoreItemSource
        let release = DispatchSemaphore(value: 0)

        init(_ source: StoreItemSource) { self.source = source }

        func states(of files: [AttachedFile]) throws -> [AttachmentState] { try source.states(of: files) }
        func attach(path: String, to id: String) throws -> AttachedFile {
            _ = release.wait(timeout: .now() + 10)
            return try source.attach(path: path, to: id)
        }
        func isHere(_ file: AttachedFile) -> Bool { source.isHere(file) }
        func copy(_ file: AttachedFile, to path: String) throws { try source.copy(file, to: path) }
    }

    @Test func aKeyPressedWhileAFileIsBeingAttachedIsDrawnBeforeTheAttachEnds() throws {
        let held = Mutex<HeldAttachments?>(nil)
        let app = try AppHarness(
            items: AppHarness.entries(3),
            attachments: { store in
                let attachments = HeldAttachments(StoreItemSource(store: store))
                held.withLock { $0 = attachments }
                return attachments
            })
        let attachments = try #require(held.withLock { $0 })
        // However the test ends, the attach is let go, so the app can stop.
        defer { attachments.release.signal() }
        let path = app.directory + "/tickets.pdf"
        try Data("boarding pass".utf8).write(to: URL(fileURLWithPath: path))
        let id = try #require(app.state.list.selectedItem?.id)

        app.press(.enter, .character("a"))
        app.type(path)
        app.runtime.send(.key(.enter))
        // The attach is held: the app says it is under way, and a key is handled meanwhile.
        #expect(app.waitFor { app.text.contains("Attaching tickets.pdf…") }, "\(app.text)")
        app.runtime.send(.key(.escape))
        #expect(app.waitFor { app.state.screen == .list }, "the key waited for the attach: \(app.text)")
        #expect(try app.store.item(id)?.attachments.isEmpty == true)

        attachments.release.signal()
        #expect(app.waitFor { app.text.contains("Attached tickets.pdf") }, "\(app.text)")
        #expect(try app.store.item(id)?.attachments.map(\.name) == ["tickets.pdf"])
    }
}
