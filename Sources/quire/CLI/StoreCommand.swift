import ArgumentParser
import Foundation
import QuireCore
import QuireStore

/// A subcommand that works on the local store: it gets the opened store and a buffered
/// stdout, and throws `CLIFailure`, `StoreError` or `ImportError` for `Quire.main()` to report.
protocol StoreCommand: ParsableCommand {
    func run(store: AppDatabase, out: inout Output) throws
}

extension StoreCommand {
    func run() throws {
        let store = try StoreAccess.open()
        var out = Output()
        defer { out.flush() }
        do {
            try run(store: store, out: &out)
        } catch let error as StoreError {
            // Errors name items by the short id lists show, as everything else a person reads.
            throw error.naming { id in (try? store.shortIDs(for: [id]))?[id] }
        }
    }
}

/// Reads what `--body` gives: the text itself, or standard input for `-`.
enum BodyInput {
    static func read(_ value: String) throws(CLIFailure) -> String {
        guard value == "-" else { return try check(value) }
        var data = Data()
        let limit = Validation.maxBodyBytes + 1
        while data.count < limit,
            let chunk = try? FileHandle.standardInput.read(upToCount: min(1 << 16, limit - data.count)),
            !chunk.isEmpty
        {
            data.append(chunk)
        }
        guard data.count < limit else {
            throw .badInput("the body on standard input is larger than \(Validation.maxBodyBytes) bytes (1 MiB)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .badInput("the body on standard input is not UTF-8 text")
        }
        return try check(text)
    }

    /// A body written elsewhere (the editor), if it fits the size limit.
    static func checked(_ text: String) throws(CLIFailure) -> String { try check(text) }

    private static func check(_ text: String) throws(CLIFailure) -> String {
        do { return try Validation.body(text) } catch { throw .badInput(error.description) }
    }
}

/// Parses the option values people type for fields.
enum FieldInput {
    static func due(_ text: String) throws(CLIFailure) -> Day? {
        do { return try Validation.due(text, today: LocalTime.today()) } catch { throw .badInput(error.description) }
    }

    /// nil for `none` or an empty rule.
    static func recurrence(_ text: String) throws(CLIFailure) -> Recurrence? {
        do { return try Validation.recurrence(text) } catch { throw .badInput(error.description) }
    }

    /// nil for `none` or an empty name.
    static func project(_ text: String) throws(CLIFailure) -> String? {
        do { return try Validation.project(text) } catch { throw .badInput(error.description) }
    }

    static func priority(_ text: String) throws(CLIFailure) -> Priority {
        do { return try Validation.priority(text) } catch { throw .badInput(error.description) }
    }

    /// Refuses a `--flag` among filter terms: the terms take every argument the command's own
    /// flags do not (so that `-home` is a term), and a mistyped flag must not read as `-tag`.
    static func refuseFlags(among terms: [String]) throws {
        if let flag = terms.first(where: { $0.hasPrefix("--") }) { throw ValidationError("Unknown option '\(flag)'.") }
    }

    /// Filter terms from the command line (SPEC: Filters), dates read in the local calendar.
    static func filter(_ arguments: [String]) throws(CLIFailure) -> Filter {
        // `quire list` alone, the common case, reads no clock or time zone.
        if arguments.isEmpty { return .all }
        do {
            return try Filter.parse(arguments: arguments, calendar: LocalTime.filterCalendar())
        } catch {
            throw .badInput(error.description)
        }
    }

    /// A tag typed as lists show it (`#work`) or without the `#`.
    static func tag(_ text: String) -> String { Tags.typed(text) }

    static func title(_ text: String) throws(CLIFailure) -> String {
        do { return try Validation.title(text) } catch { throw .badInput(error.description) }
    }
}

/// Short ids for human output, computed for exactly the items shown.
extension AppDatabase {
    func shortIDs(for items: [Item]) throws(StoreError) -> [String: String] {
        try shortIDs(for: items.map(\.id))
    }
}
