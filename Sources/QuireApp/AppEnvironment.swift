import Foundation
import QuireCore
import QuireStore

/// Everything the runtime reaches outside itself, chosen once by whoever starts the app (the
/// `quire` executable, tests, benchmarks).
public struct AppEnvironment: Sendable {
    public var items: any ItemSource
    public var sync: any SyncControl
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

    public init(
        items: any ItemSource, sync: any SyncControl = LocalOnlySync(), editorCommand: String = "vi",
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        temporaryDirectory: String = NSTemporaryDirectory(),
        today: @escaping @Sendable () -> Day = AppEnvironment.localToday,
        changePollInterval: DispatchTimeInterval = .milliseconds(100),
        editorPollInterval: DispatchTimeInterval = .milliseconds(100)
    ) {
        self.items = items
        self.sync = sync
        self.editorCommand = editorCommand
        self.processEnvironment = processEnvironment
        self.temporaryDirectory = temporaryDirectory
        self.today = today
        self.changePollInterval = changePollInterval
        self.editorPollInterval = editorPollInterval
    }

    /// The live environment over a store, reading the editor from `$VISUAL`, `$EDITOR`, `vi`.
    public static func live(store: AppDatabase, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> AppEnvironment
    {
        AppEnvironment(
            items: StoreItemSource(store: store), editorCommand: editorCommand(environment),
            processEnvironment: environment)
    }

    /// SPEC: `$VISUAL`, then `$EDITOR`, then `vi`.
    public static func editorCommand(_ environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingWhitespace().isEmpty { return value }
        }
        return "vi"
    }

    @Sendable public static func localToday() -> Day {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? Day(year: 1970, month: 1, day: 1)!
    }
}
