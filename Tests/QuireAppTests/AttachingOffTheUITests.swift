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

    /// An app over a real store whose attaching is held, with `tickets.pdf` being attached to
    /// its first item from the item view (`a`, the path, `Enter`), the notice that it is under
    /// way shown; and that item's id. The caller lets the attach go (`release`) however it ends.
    static func attaching() throws -> (app: AppHarness, attachments: HeldAttachments, id: String) {
        let held = Mutex<HeldAttachments?>(nil)
        let app = try AppHarness(
            items: AppHarness.entries(3),
            attachments: { store in
                let attachments = HeldAttachments(StoreItemSource(store: store))
                held.withLock { $0 = attachments }
                return attachments
            })
        let attachments = try #require(held.withLock { $0 })
        let path = app.directory + "/tickets.pdf"
        try Data("boarding pass".utf8).write(to: URL(fileURLWithPath: path))
        let id = try #require(app.state.list.selectedItem?.id)
        app.press(.enter, .character("a"))
        app.type(path)
        app.runtime.send(.key(.enter))
        #expect(app.waitFor { app.text.contains("Attaching tickets.pdf…") }, "\(app.text)")
        return (app, attachments, id)
    }

    @Test func aKeyPressedWhileAFileIsBeingAttachedIsDrawnBeforeTheAttachEnds() throws {
        let (app, attachments, id) = try Self.attaching()
        defer { attachments.release.signal() }
        // The attach is held: a key is handled meanwhile.
        app.runtime.send(.key(.escape))
        #expect(app.waitFor { app.state.screen == .list }, "the key waited for the attach: \(app.text)")
        #expect(try app.store.item(id)?.attachments.isEmpty == true)

        attachments.release.signal()
        #expect(app.waitFor { app.text.contains("Attached tickets.pdf") }, "\(app.text)")
        #expect(try app.store.item(id)?.attachments.map(\.name) == ["tickets.pdf"])
    }

    /// The person asked for the file; quitting while it is being attached finishes the attach
    /// before the app's process may end, instead of dropping it.
    @Test func quittingWhileAFileIsBeingAttachedFinishesTheAttachFirst() throws {
        let (app, attachments, id) = try Self.attaching()
        defer { attachments.release.signal() }
        app.runtime.stop()
        let stopped = DispatchSemaphore(value: 0)
        let filesWhenStopped = Mutex<Int?>(nil)
        Thread.detachNewThread { [store = app.store, runtime = app.runtime] in
            _ = runtime.waitUntilStopped()
            filesWhenStopped.withLock { $0 = (try? store.item(id))?.attachments.count }
            stopped.signal()
        }
        // Held, the attach is not done: the runtime must not say it has stopped yet.
        #expect(stopped.wait(timeout: .now() + 0.5) == .timedOut, "stopped with the attach under way")
        attachments.release.signal()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(filesWhenStopped.withLock { $0 } == 1, "the file is attached once the app has stopped")
    }
}
