import QuireCore
import QuireUI

/// What the app asks of sync: the status bar's summary and "sync now".
///
/// `LocalOnlySync` is used until a sync engine is plugged in: it reports the store's counts and
/// says that no remote is configured.
public protocol SyncControl: Sendable {
    /// The summary for the status bar, given the store's counts.
    func summary(counts: StoreCounts) -> SyncSummary
    /// Starts a sync round now; returns what the status bar should say.
    func syncNow() -> (text: String, isError: Bool)
}

public struct LocalOnlySync: SyncControl {
    public init() {}

    public func summary(counts: StoreCounts) -> SyncSummary {
        SyncSummary(
            connection: .noRemote, pending: counts.pending + counts.inFlight, needsReview: counts.needsReview,
            deadLetters: counts.rejected)
    }

    public func syncNow() -> (text: String, isError: Bool) {
        ("Sync is not configured: run quire remote set URL --token TOKEN", false)
    }
}
