import Foundation

/// What the running sync worker last said about itself: the connection, the hint stream, its
/// rounds and its schedule.
///
/// The worker sends one whenever any of it changes, and the app draws the status bar and the
/// sync status screen from the last one it got, so the two never disagree and never wait for
/// a poll. The store's counts (pending, needs review, rejected) come from the store instead:
/// `applied(to:)` puts the two together.
public struct SyncWorkerState: Hashable, Sendable {
    public var connection: SyncConnection
    public var lastSuccess: Date?
    /// When the next attempt happens, while waiting after a failure: the worker's own timer.
    public var nextRetry: Date?
    /// True while the hint stream is open; nil when no stream is kept.
    public var live: Bool?
    /// The last failure in a plain sentence.
    public var problem: String?
    /// The failure as the transport or the store described it, shown only when asked for.
    public var problemDetail: String?
    /// Why other devices' changes arrive by the minute's pull rather than at once, in words.
    public var pollingReason: String?
    /// What the hint stream's last failure said, shown only when asked for.
    public var pollingDetail: String?
    public var roundsStarted: Int
    public var roundsFinished: Int
    /// How many items the first pull has brought so far, while one runs (a device's first
    /// sync, or a download of everything): the server does not say how many there are in all.
    public var firstPullReceived: Int?

    /// The account is encrypted and this device lacks its keys, whatever the connection (see
    /// `SyncSummary.unlockNeeded`): read from the device's state whenever the worker's status changes.
    public var unlockNeeded = false

    public init(
        connection: SyncConnection, lastSuccess: Date? = nil, nextRetry: Date? = nil, live: Bool? = nil,
        problem: String? = nil, problemDetail: String? = nil, pollingReason: String? = nil,
        pollingDetail: String? = nil, roundsStarted: Int = 0, roundsFinished: Int = 0, firstPullReceived: Int? = nil
    ) {
        self.connection = connection
        self.lastSuccess = lastSuccess
        self.nextRetry = nextRetry
        self.live = live
        self.problem = problem
        self.problemDetail = problemDetail
        self.pollingReason = pollingReason
        self.pollingDetail = pollingDetail
        self.roundsStarted = roundsStarted
        self.roundsFinished = roundsFinished
        self.firstPullReceived = firstPullReceived
    }

    /// The summary with this state's connection, times and liveness over the store's counts.
    public func applied(to summary: SyncSummary) -> SyncSummary {
        var combined = summary
        combined.connection = connection
        combined.lastSuccess = lastSuccess ?? summary.lastSuccess
        combined.nextRetry = nextRetry
        combined.live = connection == .noRemote ? nil : live
        combined.firstPullReceived = firstPullReceived
        combined.unlockNeeded = unlockNeeded
        return combined
    }

    /// How other devices' changes arrive, in words, for the sync status screen.
    public var updates: String? {
        guard let live else { return nil }
        if live { return "live" }
        return "polling every minute" + (pollingReason.map { ": \($0)" } ?? "")
    }
}
