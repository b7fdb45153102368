import Foundation
import QuireCore

/// Everything the sync status screen shows, read in one go off the UI queue.
///
/// A plain value, so the screen is a pure function of it and tests can build one by hand. The
/// facts come from the same places `quire status` reads (the store's outbox, conflicts and
/// event log, the configured remote, the running worker), plus what only a screen has room
/// for: each dead letter, each conflict's title, traffic and durations.
public struct SyncStatusDetail: Hashable, Sendable {
    /// An operation the server refused for good, waiting for the person to retry or discard it.
    public struct DeadLetter: Hashable, Sendable {
        public var opID: String
        public var itemID: String
        /// The item's title now (the item may have changed since the op was made).
        public var title: String
        public var reason: String
        /// When it was set aside (when the op was made, if the log no longer says).
        public var at: Date

        public init(opID: String, itemID: String, title: String, reason: String, at: Date) {
            self.opID = opID
            self.itemID = itemID
            self.title = title
            self.reason = reason
            self.at = at
        }
    }

    /// An item that needs review.
    public struct Conflict: Hashable, Sendable {
        public var itemID: String
        public var title: String

        public init(itemID: String, title: String) {
            self.itemID = itemID
            self.title = title
        }
    }

    /// An item whose newest server version does not open on this device, and why (a key it
    /// lacks, or a copy altered on the server).
    public struct Unreadable: Hashable, Sendable {
        public var itemID: String
        /// The short id people type (the id's start for an item this device never held).
        public var shortID: String
        /// The title of the copy this device holds; nil when it holds none.
        public var title: String?
        public var reason: String

        public init(itemID: String, shortID: String, title: String?, reason: String) {
            self.itemID = itemID
            self.shortID = shortID
            self.title = title
            self.reason = reason
        }
    }

    /// One line of the sync event log.
    public struct Event: Hashable, Sendable {
        /// The log's own order; breaks ties between events of the same millisecond.
        public var seq: Int64
        public var at: Date
        public var kind: SyncEventKind
        public var message: String

        public init(seq: Int64, at: Date, kind: SyncEventKind, message: String) {
            self.seq = seq
            self.at = at
            self.kind = kind
            self.message = message
        }
    }

    /// What one sync round moved and how long it took.
    public struct Round: Hashable, Sendable {
        /// Nil when the round's end is not known (a round that logged nothing after it started).
        public var duration: TimeInterval?
        public var bytesSent: Int
        public var bytesReceived: Int

        public init(duration: TimeInterval?, bytesSent: Int, bytesReceived: Int) {
            self.duration = duration
            self.bytesSent = bytesSent
            self.bytesReceived = bytesReceived
        }
    }

    /// Where the round figures come from, so the screen can say what its totals cover.
    public enum RoundSource: Hashable, Sendable {
        /// Rounds this app ran since it started.
        case thisSession
        /// Rounds read back from the event log (any process, as far back as the log goes).
        case eventLog
    }

    /// How many events the screen keeps; the log itself keeps more.
    public static let eventLimit = 50

    /// The server URL; never the token.
    public var remote: String?
    public var connection: SyncConnection
    /// One line about the last failure, when the worker knows one.
    public var problem: String?
    public var lastSuccess: Date?
    /// Operations waiting to be sent.
    public var outbox: Int
    /// Operations sent and not yet answered.
    public var inFlight: Int
    public var nextRetry: Date?
    /// How other devices' changes arrive: `live`, or `polling` and why (nil: not known here).
    public var updates: String?
    /// Oldest first, the order they were set aside in.
    public var deadLetters: [DeadLetter]
    /// Oldest conflict first.
    public var conflicts: [Conflict]
    /// The items marked unreadable, the first seen first.
    public var unreadable: [Unreadable]
    /// Oldest first.
    public var rounds: [Round]
    public var roundSource: RoundSource
    /// Newest first, at most `eventLimit`.
    public private(set) var events: [Event]

    public init(
        remote: String?, connection: SyncConnection, problem: String? = nil, lastSuccess: Date? = nil,
        outbox: Int = 0, inFlight: Int = 0, nextRetry: Date? = nil, deadLetters: [DeadLetter] = [],
        conflicts: [Conflict] = [], unreadable: [Unreadable] = [], rounds: [Round] = [],
        roundSource: RoundSource = .eventLog, events: [Event] = []
    ) {
        self.remote = remote
        self.connection = connection
        self.problem = problem
        self.lastSuccess = lastSuccess
        self.outbox = outbox
        self.inFlight = inFlight
        self.nextRetry = nextRetry
        self.deadLetters = deadLetters
        self.conflicts = conflicts
        self.unreadable = unreadable
        self.rounds = rounds
        self.roundSource = roundSource
        self.events = SyncStatusDetail.newestFirst(events, limit: SyncStatusDetail.eventLimit)
    }

    /// Operations not yet accepted by the server: what the sparkline tracks.
    public var outboxDepth: Int { outbox + inFlight }

    public var bytesSent: Int { rounds.reduce(0) { $0 + $1.bytesSent } }
    public var bytesReceived: Int { rounds.reduce(0) { $0 + $1.bytesReceived } }

    /// The durations of the rounds whose end is known, oldest first.
    public var durations: [TimeInterval] { rounds.compactMap(\.duration) }

    /// The events newest first (by time, then by log order), at most `limit` of them.
    public static func newestFirst(_ events: [Event], limit: Int) -> [Event] {
        Array(events.sorted { ($0.at, $0.seq) > ($1.at, $1.seq) }.prefix(max(0, limit)))
    }

    /// The nearest-rank percentile (`fraction` from 0 to 1) of `values`; nil when there are none.
    ///
    /// Nearest-rank always answers a value that was measured, which reads better than an
    /// interpolated one when there are only a handful of rounds.
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((min(1, max(0, fraction)) * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
