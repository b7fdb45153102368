import Foundation
import QuireApp
import QuireCore
import QuireStore
import QuireSync
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// The real runtime over a real store file, drawing into a `TestBackend`.
final class AppHarness: @unchecked Sendable {
    let store: AppDatabase
    let backend: TestBackend
    let runtime: AppRuntime
    let directory: String

    /// - Parameters:
    ///   - prepare: writes to the store (and files beside it) before the app starts.
    ///   - sync: the app's sync control, given the data directory (default: no remote);
    ///     `syncOverStore` is given the store too (for an engine over it).
    ///   - attachments: the attached files' side of the store (default: the store's own).
    ///   - variables: set in the app's process environment (`QUIRE_OPEN`), given the data directory.
    ///   - keepsDrafts: the editor's text is kept in the store as the app keeps it.
    init(
        size: Size = Size(width: 80, height: 24), items: [ImportEntry] = [], editor: String = "false",
        storeEnvironment: StoreEnvironment = .deterministic(),
        source: ((AppDatabase) -> any ItemSource)? = nil,
        prepare: ((AppDatabase, String) throws -> Void)? = nil,
        sync: ((String) throws -> any SyncControl)? = nil,
        syncOverStore: ((AppDatabase, String) throws -> any SyncControl)? = nil,
        attachments: ((AppDatabase) -> any AttachmentSource)? = nil,
        now: (@Sendable () -> Date)? = nil,
        variables: (String) -> [String: String] = { _ in [:] }, keepsDrafts: Bool = false
    ) throws {
        directory = try makeTemporaryDirectory("quire-app-test")
        store = try AppDatabase.open(path: directory + "/quire.db", environment: storeEnvironment)
        if !items.isEmpty { _ = try store.importItems(items) }
        try prepare?(store, directory)
        backend = TestBackend(size: size)
        var environment = AppEnvironment(
            items: source?(store) ?? StoreItemSource(store: store), reviews: StoreItemSource(store: store),
            statusStore: store, drafts: keepsDrafts ? store : nil,
            sync: try syncOverStore?(store, directory) ?? sync?(directory) ?? LocalOnlySync(),
            now: now ?? StoreEnvironment.live.now, editorCommand: editor,
            processEnvironment: ProcessInfo.processInfo.environment.merging(variables(directory)) { $1 },
            temporaryDirectory: directory,
            today: { Day("2027-01-15")! }, changePollInterval: .milliseconds(20), editorPollInterval: .milliseconds(20))
        environment.attachments =
            attachments?(store) ?? StoreItemSource(store: store, settings: Self.settings(in: directory))
        runtime = AppRuntime(environment: environment, backend: backend, label: "quire.ui.test")
        runtime.start()
        runtime.waitUntilIdle()
    }

    deinit {
        runtime.stop()
        _ = runtime.waitUntilStopped()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The sync settings beside the store: where a test's sync control and attaching read the
    /// remote and the account's keys.
    static func settings(in directory: String) -> SyncSettings {
        SyncSettings(configPath: directory + "/config.toml", credentialsPath: directory + "/credentials")
    }

    var text: String { backend.text }
    var lines: [String] { backend.screen.lines }
    var state: AppState { runtime.currentState }

    /// Presses keys through the runtime and waits until they are drawn.
    func press(_ keys: Key...) {
        for key in keys { runtime.send(.key(key)) }
        #expect(runtime.waitUntilIdle(), "the app did not become idle")
    }

    func type(_ text: String) {
        for character in text { runtime.send(.key(.character(character))) }
        #expect(runtime.waitUntilIdle(), "the app did not become idle")
    }

    /// Opens the selected item's view and attaches the file at `path` as a person does (`a`,
    /// the path, `Enter`), then waits until the app says it is attached.
    func attachInTheItemView(_ path: String) {
        press(.enter, .character("a"))
        type(path)
        press(.enter)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(waitFor { text.contains("Attached \(name)") }, "\(text)")
    }

    /// Runs one poll of the store and the clock (what the timer does) and waits until it is
    /// drawn: a test that something did not happen drives the poll instead of waiting it out.
    func pollAndWait() {
        runtime.pollNow()
        #expect(runtime.waitUntilIdle(), "the app did not become idle")
    }

    /// Polls a condition every few milliseconds until it holds or the deadline passes.
    @discardableResult
    func waitFor(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        try waitUntil(timeout: timeout, condition)
    }

    /// The selected row's text.
    var selectedRow: String? { lines.first { $0.hasPrefix(">") } }

    static func entries(_ count: Int) -> [ImportEntry] {
        (1...count).map { n in
            ImportEntry(
                kind: n % 2 == 0 ? .task : .note, title: "Item \(n)",
                createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(n)))
        }
    }
}
