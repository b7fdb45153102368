import ArgumentParser
import Foundation
import QuireServer

/// `quire-server backup`: a consistent copy of a running server's SQLite database.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite database while the server runs (for PostgreSQL use pg_dump; see the README).",
        discussion:
            "The copy holds every write the server acknowledged before the backup started, and is checked with PRAGMA integrity_check before it is put in place."
    )

    @Option(name: .customLong("db"), help: "The server's SQLite database file.")
    var databasePath: String

    @Option(help: "The backup file to write (must not exist).")
    var output: String

    func run() async throws {
        try reportingRefusal {
            let summary = try SQLiteBackup.backup(database: databasePath, to: output)
            print("backed up \(summary.counts) to \(output)")
        }
    }
}

/// `quire-server restore`: installs a backup with a new epoch while the server is stopped.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install a backup as the SQLite database and renew its epoch, with the server stopped.",
        discussion:
            "Devices then resync and send again what the backup lacks. The database it replaces is kept beside it as DB.replaced-TIME. Refuses while a server or another command has the database open."
    )

    @Option(name: .customLong("db"), help: "The server's SQLite database file to replace.")
    var databasePath: String

    @Option(help: "The backup file written by 'quire-server backup'.")
    var input: String

    func run() async throws {
        try reportingRefusal {
            let (summary, replaced) = try SQLiteBackup.restore(backup: input, into: databasePath)
            print("restored \(summary.counts); new epoch \(summary.epoch)")
            if let replaced { printError("the database it replaced is kept as \(replaced)") }
        }
    }
}

/// `quire-server migrate`: brings the database to this binary's schema ahead of a start.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring the database to this version's schema (serve does it too); refuses a newer database.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = store.location
        let report = try await reportingFailures(store.makeLogger()) { logger in
            try await ServerAdmin.migrate(location, logger: logger)
        }
        print(report.description)
    }
}

/// Runs a file command; a refusal becomes one line on stderr and exit status 1.
private func reportingRefusal(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ConfigurationError {
        printError(error.description)
        throw ExitCode(1)
    }
}

extension SQLiteBackup.Summary {
    /// "1 user and 20 items".
    var counts: String {
        "\(users) user\(users == 1 ? "" : "s") and \(items) item\(items == 1 ? "" : "s")"
    }
}
