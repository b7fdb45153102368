import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireSync
import QuireTestSupport
import Synchronization
import TerminalUI
import Testing

/// The item view follows a file on its way down by the store's change detection and the
/// engine's download progress, not by reading the file's state at every tick: device A
/// attaches and syncs to a real `quire-server`, device B (download = "on-open") shows it.
@Suite struct AttachmentWatchTests {
    /// The store's attachments, counting how often their states are read.
    final class CountingAttachments: AttachmentSource {
        let source: StoreItemSource
        let reads = Atomic<Int>(0)

        init(_ source: StoreItemSource) { self.source = source }

        func states(of files: [AttachedFile]) throws -> [AttachmentState] {
            reads.add(1, ordering: .relaxed)
            return try source.states(of: files)
        }
        func attach(path: String, to id: String) throws -> AttachedFile {
            try source.attach(path: path, to: id)
        }
        func isHere(_ file: AttachedFile) -> Bool { source.isHere(file) }
        func copy(_ file: AttachedFile, to path: String) throws { try source.copy(file, to: path) }
    }

    /// Settings signed in to `server` in `directory`, with `config` added to the config file.
    static func settings(_ directory: String, _ server: TmuxSyncTests.Server, config: String = "") throws
        -> SyncSettings
    {
        let settings = AppHarness.settings(in: directory)
        try settings.setRemote(SyncRemote(url: server.url, token: server.token))
        let text = try String(contentsOfFile: settings.configPath, encoding: .utf8)
        try (text + config).write(toFile: settings.configPath, atomically: true, encoding: .utf8)
        return settings
    }

    @Test func theItemViewShowsTheFileLandWithoutReadingItAtEachTick() async throws {
        let server = try TmuxSyncTests.Server(binary: try #require(BuiltProduct.path("quire-server")))
        // Device A attaches three chunks' worth and uploads them.
        let home = try makeTemporaryDirectory("quire-watch-a")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let deviceA = try AppDatabase.open(path: home + "/quire.db")
        let original = home + "/plan.pdf"
        try Data((0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
            .write(to: URL(fileURLWithPath: original))
        let note = try deviceA.create(NewItem(title: "Garden"))
        let file = try #require(try deviceA.attachFiles(at: [original], to: note.id).files.first)
        let engineA = SyncSetup.engine(
            for: deviceA, settings: try Self.settings(home, server), environment: deviceA.environment)
        _ = await engineA.runToCompletion()
        #expect(try deviceA.attachmentTransfers()[file.hash] == .uploaded)

        // Device B, fetching files only when asked, pulls the note and shows it waiting.
        let engineB = Mutex<SyncEngine?>(nil)
        let counting = Mutex<CountingAttachments?>(nil)
        let app = try AppHarness(
            syncOverStore: { store, directory in
                let settings = try Self.settings(directory, server, config: "[attachments]\ndownload = \"on-open\"\n")
                let engine = SyncSetup.engine(for: store, settings: settings, environment: store.environment)
                engineB.withLock { $0 = engine }
                return LiveSyncControl(settings: settings, engine: engine)
            },
            attachments: { store in
                let source = CountingAttachments(StoreItemSource(store: store))
                counting.withLock { $0 = source }
                return source
            })
        let engine = try #require(engineB.withLock { $0 })
        let attachments = try #require(counting.withLock { $0 })
        _ = await engine.runToCompletion()
        #expect(app.waitFor { app.text.contains("Garden") })
        app.press(.enter)
        #expect(
            app.waitFor { app.text.contains("plan.pdf") && app.text.contains("waiting to download") }, "\(app.text)")

        // Waiting, nothing moves: the ticks read nothing. A commit the app's own sync makes
        // meanwhile (a late first round on a loaded machine) may read once or twice; reading
        // at every tick, as before, reads 20 times.
        #expect(app.runtime.waitUntilIdle())
        let before = attachments.reads.load(ordering: .relaxed)
        for _ in 0..<20 { app.pollAndWait() }
        let read = attachments.reads.load(ordering: .relaxed) - before
        #expect(read <= 2, "\(read) reads of the file's state in 20 ticks while nothing moves")

        // The engine brings it (as `o` asks it to): the view shows it here.
        try await engine.fetch(file)
        #expect(
            app.waitFor { app.text.contains("plan.pdf  2.4 MB  here") && !app.text.contains("waiting to download") },
            "\(app.text)")
        #expect(attachments.reads.load(ordering: .relaxed) > before)
        withExtendedLifetime(server) {}
    }
}
