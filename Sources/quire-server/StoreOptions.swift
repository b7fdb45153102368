import ArgumentParser
import Foundation
import Logging
import QuireServer

/// `--db PATH | --postgres URL`, shared by every command.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "SQLite database file (created when missing).")
    var databasePath: String?

    @Option(help: "PostgreSQL URL, e.g. postgres://quire@127.0.0.1:5432/quire (shared by several server processes).")
    var postgres: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        if databasePath != nil && postgres != nil {
            throw ValidationError("give either --db or --postgres, not both")
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
    }

    var location: StoreLocation {
        if let postgres { return .postgres(url: postgres) }
        return .sqlite(path: databasePath ?? "./quire-server.db")
    }

    /// Sends logs to stderr at the chosen level and answers the server's logger.
    func makeLogger() -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "quire-server")
    }
}

/// Runs an operator command, turning failures into one line on stderr and an exit code:
/// 1 bad input, 2 no such user, 3 the store cannot be reached.
func runAdmin(_ options: StoreOptions, _ body: @escaping @Sendable (ServerAdmin) async throws -> Void) async throws {
    let location = options.location
    try await reportingFailures(options.makeLogger()) { logger in
        try await ServerAdmin.withStore(location, logger: logger, body)
    }
}

/// Runs `body` with `logger` turned down to warnings, turning failures into one line on
/// stderr and the exit codes of `runAdmin`.
func reportingFailures<T: Sendable>(_ logger: Logger, _ body: (Logger) async throws -> T) async throws -> T {
    var logger = logger
    logger.logLevel = .warning
    do {
        return try await body(logger)
    } catch let error as StoreError {
        printError(error.description)
        switch error {
        case .userNotFound, .noSuchToken: throw ExitCode(2)
        default: throw ExitCode(1)
        }
    } catch let error as ConfigurationError {
        printError(error.description)
        throw ExitCode(1)
    } catch let exit as ExitCode {
        throw exit
    } catch {
        printError("cannot use the store: \(error)")
        throw ExitCode(3)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("quire-server: \(message)\n".utf8))
}
