import Foundation
import QuireCore
import QuireStore
import QuireSync

/// What the sync commands share: where the remote is configured and how to reach it.
enum SyncCommandSupport {
    static func settings(paths: QuirePaths = QuirePaths()) -> SyncSettings {
        SyncSettings(configPath: paths.config, credentialsPath: paths.credentials)
    }

    /// The settings, once both files are known to read: a line Quire cannot read is said (file
    /// and line) instead of looking like a device with no remote.
    static func checkedSettings(paths: QuirePaths = QuirePaths()) throws -> SyncSettings {
        let settings = settings(paths: paths)
        do {
            try settings.check()
        } catch {
            throw CLIFailure.badInput(error.description)
        }
        return settings
    }

    /// The engine for `store`, on the store's own clock and ids.
    static func engine(store: AppDatabase, settings: SyncSettings) -> SyncEngine {
        SyncSetup.engine(for: store, settings: settings, environment: store.environment)
    }

    /// The failure a round outcome means for `quire sync`, or nil when it succeeded.
    static func failure(for outcome: SyncMachine.RoundOutcome) -> CLIFailure? {
        switch outcome {
        case .caughtUp, .moreToDo:
            return nil
        case .networkError(let reason):
            return CLIFailure(
                .unreachable, "server unreachable (\(reason)); local changes are kept and sync will retry")
        case .serverError(429, let retryAfter):
            let wait = retryAfter.map { " for \(Int($0.rounded(.up)))s" } ?? ""
            return CLIFailure(
                .unreachable, "the server asked to slow down\(wait); local changes are kept and sync will retry")
        case .serverError(let status, _):
            return CLIFailure(.unreachable, "the server answered \(status); local changes are kept and sync will retry")
        case .authRefused(let status):
            return CLIFailure(
                .authenticationRefused,
                "the server refused the token (\(status)): sign in again with 'quire remote set URL --token TOKEN'")
        case .encryptionLocked:
            return CLIFailure(
                .authenticationRefused,
                "this account is encrypted: unlock this device with 'quire encryption unlock' (local changes are kept)")
        case .resyncNeeded:
            return CLIFailure(
                .unreachable, "the server keeps asking for a resync; local changes are kept, try again later")
        case .busy:
            return CLIFailure(.unreachable, "another sync of this database is still running; try again in a moment")
        case .notConfigured:
            return CLIFailure(.badInput, "no remote is set: run 'quire remote set URL --token TOKEN' first")
        case .localFailure(let reason):
            return CLIFailure(.unusable, reason)
        }
    }

    /// The failure `outcome` means, in the server's own words when it refused the request as
    /// such (a 4xx other than 429: trying again cannot change it, and its message says what
    /// to do, such as storing the key ring again after a restore). The round logged them as
    /// its newest event.
    static func failure(for outcome: SyncMachine.RoundOutcome, store: AppDatabase) -> CLIFailure? {
        guard case .serverError(let status, _) = outcome, (400..<500).contains(status), status != 429,
            let said = try? store.recentSyncEvents(limit: 1).first?.message
        else { return failure(for: outcome) }
        return CLIFailure(.unreachable, "\(said); local changes are kept")
    }

    /// `outcome` in `quire sync --json`.
    static func name(of outcome: SyncMachine.RoundOutcome) -> String {
        switch outcome {
        case .caughtUp, .moreToDo: "ok"
        case .networkError: "unreachable"
        case .serverError(429, _): "rate-limited"
        case .serverError: "server-error"
        case .authRefused: "auth-refused"
        case .encryptionLocked: "encryption-locked"
        case .resyncNeeded: "resync-needed"
        case .busy: "busy"
        case .notConfigured: "no-remote"
        case .localFailure: "local-failure"
        }
    }
}
