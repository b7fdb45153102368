import Foundation
import Logging
import PostgresNIO
import Testing

@testable import QuireServer

/// The two stores every protocol test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The throwaway PostgreSQL database `scripts/with-postgres.sh` starts, if any.
    static var postgresURL: String? {
        guard let url = ProcessInfo.processInfo.environment["QUIRE_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// The stores to run against: SQLite always, PostgreSQL when the test database is there
    /// (`PostgreSQLRun` reports the skip when it is not).
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    static let skipMessage: Comment =
        "QUIRE_TEST_POSTGRES_URL is not set: the PostgreSQL run is skipped (make test starts a PostgreSQL for it)"

    /// A fresh, empty store: an SQLite file in a new temporary folder, or a new schema of its
    /// own in the test PostgreSQL database. Skips the test when PostgreSQL is not available.
    func makeStore() throws -> TestStore {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("quire-server-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SQLiteStore(path: folder.appendingPathComponent("server.db").path)
            return TestStore(store: store, folder: folder, postgres: nil)
        case .postgres:
            guard let url = StoreKind.postgresURL else { try Test.cancel(StoreKind.skipMessage) }
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let store = try PostgresStore(url: url, schema: schema, maximumConnections: 3, logger: quietLogger)
            return TestStore(store: store, folder: nil, postgres: store)
        }
    }
}

/// A store made for one test, and what to remove afterwards.
struct TestStore: Sendable {
    let store: any SyncStore
    let folder: URL?
    let postgres: PostgresStore?

    /// Drops the PostgreSQL schema (while the store still runs) ...
    func dropSchema() async {
        try? await postgres?.dropSchema()
    }

    /// ... and removes the SQLite folder (afterwards).
    func removeFiles() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "quire-server-test")
    logger.logLevel = .critical
    return logger
}()

extension StoreKind {
    /// Runs `body` with the URL of a new, empty database on the test PostgreSQL server (named
    /// `prefix` and a random part), for tests that start real `quire-server` processes on it;
    /// the database is dropped once `body` has stopped them.
    static func withFreshPostgresDatabase(
        prefix: String, _ body: @Sendable (String) async throws -> Void
    ) async throws {
        let base = try #require(postgresURL)
        let database = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let admin = PostgresClient(configuration: try PostgresStore.configuration(url: base))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"))
            try await body(base.replacingOccurrences(of: "/quire_test", with: "/\(database)"))
            try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(database)"))
        }
    }
}
