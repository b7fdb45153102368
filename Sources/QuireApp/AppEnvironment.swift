import Foundation
import QuireCore
import QuireStore
import QuireSync

/// Everything the runtime reaches outside itself, chosen once by whoever starts the app (the
/// `quire` executable, tests, benchmarks).
public struct AppEnvironment: Sendable {
    public var items: any ItemSource
    /// Where the resolve screen reads an item's versions and writes resolutions; nil for
    /// sources without sync bookkeeping (the screen then points to `quire resolve`).
    public var reviews: (any ReviewSource)?
    /// The store file the sync status screen reads and whose dead letters it retries or
    /// discards; nil when items live in memory (the screen then shows the source's counts).
    public var statusStore: AppDatabase?
    /// Where the editor's unsaved text is kept (see `Draft`); nil keeps none.
    public var drafts: (any DraftStore)?
    public var sync: any SyncControl
    /// The process's one clock: the status bar's times and the runtime's timers read it.
    public var now: @Sendable () -> Date
    /// The command that edits a file, run through `/bin/sh` (`$VISUAL`, `$EDITOR`, or `vi`).
    public var editorCommand: String
    /// Environment variables for the editor.
    public var processEnvironment: [String: String]
    /// Where the editor's temporary files go.
    public var temporaryDirectory: String
    /// Today's date where the person is, for overdue tasks.
    public var today: @Sendable () -> Day
    /// How often to look for changes made by other processes.
    public var changePollInterval: DispatchTimeInterval
    /// How often the external editor's file is checked for saves.
    public var editorPollInterval: DispatchTimeInterval
    /// The saved views as the config holds them now (`v`); none without a config.
    public var savedViews: @Sendable () -> SavedViewList = { SavedViewList() }
    /// The attached files' bytes and states; nil when items live in memory (the item view then
    /// says files need the store).
    public var attachments: (any AttachmentSource)?
    /// Where relative paths typed in the file prompts start (the directory the app started in).
    public var workingDirectory = FileManager.default.currentDirectoryPath

    /// The command that opens an attached file, run through `/bin/sh` beside the app:
    /// `$QUIRE_OPEN`, else `xdg-open`.
    public var openCommand: String {
        if let command = processEnvironment["QUIRE_OPEN"], !command.trimmingWhitespace().isEmpty { return command }
        return "xdg-open"
    }

    /// `~` in the file prompts: `$HOME`, else the user's home as the system knows it.
    public var homeDirectory: String {
        processEnvironment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// - Parameters:
    ///   - now: the clock; the live one is the store's (`StoreEnvironment.live`), so the app's
    ///     times and the store's agree.
    ///   - today: the person's date; by default the local day of `now`.
    public init(
        items: any ItemSource, reviews: (any ReviewSource)? = nil, statusStore: AppDatabase? = nil,
        drafts: (any DraftStore)? = nil, sync: any SyncControl = LocalOnlySync(),
        now: @escaping @Sendable () -> Date = StoreEnvironment.live.now,
        editorCommand: String = "vi",
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        temporaryDirectory: String = NSTemporaryDirectory(),
        today: (@Sendable () -> Day)? = nil,
        changePollInterval: DispatchTimeInterval = .milliseconds(100),
        editorPollInterval: DispatchTimeInterval = .milliseconds(100)
    ) {
        self.items = items
        self.reviews = reviews
        self.statusStore = statusStore
        self.drafts = drafts
        self.sync = sync
        self.now = now
        self.editorCommand = editorCommand
        self.processEnvironment = processEnvironment
        self.temporaryDirectory = temporaryDirectory
        self.today = today ?? { AppEnvironment.localDay(of: now()) }
        self.changePollInterval = changePollInterval
        self.editorPollInterval = editorPollInterval
    }

    /// Everything over one store: its items, reviews and sync status, and its clock; files
    /// attached in the app take their keys from `settings`.
    public static func store(
        _ store: AppDatabase, sync: any SyncControl = LocalOnlySync(), settings: SyncSettings? = nil
    ) -> AppEnvironment {
        let source = StoreItemSource(store: store, settings: settings)
        var environment = AppEnvironment(
            items: source, reviews: source, statusStore: store, drafts: store, sync: sync,
            now: store.environment.now)
        environment.attachments = source
        return environment
    }

    /// The live environment over a store, reading the editor from `$VISUAL`, `$EDITOR`, `vi`.
    public static func live(
        store: AppDatabase, settings: SyncSettings? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AppEnvironment {
        var live = AppEnvironment.store(store, settings: settings)
        live.editorCommand = editorCommand(environment)
        live.processEnvironment = environment
        return live
    }

    /// SPEC: `$VISUAL`, then `$EDITOR`, then `vi`.
    public static func editorCommand(_ environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingWhitespace().isEmpty { return value }
        }
        return "vi"
    }

    /// The date in the person's time zone at `instant`.
    public static func localDay(of instant: Date) -> Day {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: instant)
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? Day(year: 1970, month: 1, day: 1)!
    }
}
