import Foundation
import Logging
import ServiceLifecycle

/// The operator's commands (`user add`, `user list`, `token revoke`, …) over a store.
public struct ServerAdmin: Sendable {
    let store: any SyncStore
    let now: @Sendable () -> Date

    /// Opens the store at `location`, prepares it, runs `body`, and closes it.
    public static func withStore<T: Sendable>(
        _ location: StoreLocation, logger: Logger, _ body: @Sendable (ServerAdmin) async throws -> T
    ) async throws -> T {
        try await withStore(location, logger: logger, prepared: true, body)
    }

    /// `prepared: false` leaves the database as it is (to read its schema version first).
    static func withStore<T: Sendable>(
        _ location: StoreLocation, logger: Logger, prepared: Bool, _ body: @Sendable (ServerAdmin) async throws -> T
    ) async throws -> T {
        let store = try openStore(location, connections: 2, logger: logger)
        let admin = ServerAdmin(store: store, now: { Date() })
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for service in store.services {
                group.addTask { try await service.run() }
            }
            do {
                if prepared { try await store.prepare() }
                let value = try await body(admin)
                group.cancelAll()
                return value
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    /// Creates a user and answers its first token (shown once; only its hash is stored).
    public func addUser(name: String) async throws -> String {
        let token = Tokens.generate()
        try await store.addUser(name: name, tokenHash: Tokens.hash(token), now: now())
        return token
    }

    /// Issues another token for an existing user, named for the device it is for (so that
    /// device's token alone can be revoked when it is lost).
    public func addToken(userName: String, name: String? = nil) async throws -> String {
        let token = Tokens.generate()
        try await store.addToken(userName: userName, tokenHash: Tokens.hash(token), name: name, now: now())
        return token
    }

    public func users() async throws -> [UserSummary] {
        try await store.users()
    }

    /// A user's tokens: id (a prefix of the stored hash), device name, creation time.
    public func tokens(userName: String) async throws -> [TokenSummary] {
        try await store.tokens(userName: userName)
    }

    /// Revokes the tokens of a user `selector` picks (every one by default); answers how many.
    public func revokeTokens(userName: String, matching selector: TokenSelector = .all) async throws -> Int {
        try await store.revokeTokens(userName: userName, matching: selector)
    }

    /// Removes a user and everything of theirs; answers what they had.
    public func removeUser(name: String) async throws -> UserSummary {
        try await store.removeUser(name: name)
    }

    /// What a user has, for a confirmation question.
    public func user(named name: String) async throws -> UserSummary {
        guard let user = try await store.users().first(where: { $0.name == name }) else {
            throw StoreError.userNotFound(name)
        }
        return user
    }

    /// Gives the database a new epoch; every device then resyncs and re-sends what the
    /// server may have lost. Run after restoring a backup.
    public func renewEpoch() async throws -> String {
        try await store.renewEpoch(now: now())
    }

    /// Brings the database to this binary's schema and says from which version; refuses a
    /// database newer than the binary (as every command does, through `prepare`).
    public static func migrate(_ location: StoreLocation, logger: Logger) async throws -> MigrationReport {
        let before = try await withStore(location, logger: logger, prepared: false) { admin in
            try await admin.store.schemaVersion()
        }
        let after = try await withStore(location, logger: logger) { admin in try await admin.store.schemaVersion() }
        return MigrationReport(before: before, after: after ?? SchemaVersion.current)
    }

    public func epoch() async throws -> String {
        try await store.epoch()
    }
}
