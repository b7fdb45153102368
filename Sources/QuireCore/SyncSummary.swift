import Foundation

/// Where sync stands as a whole, in the words of `quire status --json`'s `state`.
public enum SyncConnection: String, Codable, Sendable, CaseIterable, Hashable {
    /// Reachable and not syncing right now.
    case idle
    case syncing
    /// The last round could not reach the server; it will retry.
    case offline
    /// The server refused the token: sync is paused until the person signs in again.
    case authNeeded = "auth-needed"
    /// The server answered with an error; it will retry.
    case error
    /// No server configured: Quire works locally only.
    case noRemote = "no-remote"
}

/// Everything a status bar or `quire status` needs to say about sync, as plain values.
///
/// Both the TUI and the CLI render it through `statusLine(now:timeZone:)`, so they always say
/// the same thing. Time is passed in: the summary never reads a clock.
public struct SyncSummary: Hashable, Sendable {
    public var connection: SyncConnection
    /// Items with a local change not yet acknowledged by the server (pending or syncing).
    public var pending: Int
    public var needsReview: Int
    /// Operations set aside because the server can never apply them as they are.
    public var deadLetters: Int
    public var lastSuccess: Date?
    /// When the next attempt happens, while waiting after a failure.
    public var nextRetry: Date?
    /// True while a hint stream brings other devices' changes at once, false while they are
    /// found by the periodic pull; nil where that does not apply (`quire status`).
    public var live: Bool?
    /// Items a first pull has brought so far, while one runs (see `SyncWorkerState`).
    public var firstPullReceived: Int?
    /// The account is encrypted and this device holds no keys, whatever the connection: what
    /// to do is unlock, not sign in again, and `U` opens the prompt.
    public var unlockNeeded = false

    public init(
        connection: SyncConnection, pending: Int = 0, needsReview: Int = 0, deadLetters: Int = 0,
        lastSuccess: Date? = nil, nextRetry: Date? = nil, live: Bool? = nil, firstPullReceived: Int? = nil
    ) {
        self.connection = connection
        self.pending = pending
        self.needsReview = needsReview
        self.deadLetters = deadLetters
        self.lastSuccess = lastSuccess
        self.nextRetry = nextRetry
        self.live = live
        self.firstPullReceived = firstPullReceived
    }

    /// One line for a status bar, most urgent news first:
    /// `1 needs review · press c`, `3 pending · offline, retrying in 8s`,
    /// `All changes synced · 14:22`.
    ///
    /// `unlock` is what a locked device is told to do: the command, or the app's key.
    public func statusLine(now: Date, timeZone: TimeZone, unlock: String = "quire encryption unlock") -> String {
        var parts: [String] = []
        if needsReview > 0 {
            parts.append("\(needsReview) needs review")
        }
        if pending > 0 {
            parts.append("\(pending) pending")
        }
        if deadLetters > 0 {
            parts.append(deadLetters == 1 ? "1 change rejected" : "\(deadLetters) changes rejected")
        }
        let retry = nextRetry.map { "retrying \(SyncSummary.countdown(from: now, to: $0))" }

        switch connection {
        case .noRemote:
            parts.append(parts.isEmpty ? "Local only · no remote set" : "no remote set")
            return parts.joined(separator: " · ")
        case .authNeeded where unlockNeeded, .idle where unlockNeeded:
            parts.append("sync paused · encrypted: \(unlock)")
            return parts.joined(separator: " · ")
        case .authNeeded:
            parts.append("sync paused · sign in again: quire remote set")
            return parts.joined(separator: " · ")
        case .offline:
            parts.append(["offline", retry].compactMap { $0 }.joined(separator: ", "))
        case .error:
            parts.append(["sync error", retry].compactMap { $0 }.joined(separator: ", "))
        case .syncing:
            parts.append(firstPullReceived.map { SyncSummary.firstPullText(received: $0) } ?? "syncing…")
            if needsReview > 0 { parts.append("press c") }
        case .idle:
            break
        }
        if connection != .idle {
            // A locked device that is also offline (or syncing, or refused otherwise) says both:
            // no round goes through until it is unlocked, whatever the network does.
            if unlockNeeded { parts.append("encrypted: \(unlock)") }
            return parts.joined(separator: " · ")
        }
        if needsReview > 0 {
            parts.append("press c")
            return parts.joined(separator: " · ")
        }
        if deadLetters > 0 {
            parts.append("press S")
            return parts.joined(separator: " · ")
        }
        if pending > 0 {
            return parts.joined(separator: " · ")
        }
        guard let lastSuccess else { return "Not synced yet" }
        let synced = "All changes synced · \(SyncSummary.clockTime(lastSuccess, now: now, timeZone: timeZone))"
        return live.map { synced + ($0 ? " · live" : " · polling") } ?? synced
    }

    /// `first sync · 12,500 items received`: how far a first pull has come. Of how many is
    /// not known (the server does not say), so no share and no time left.
    public static func firstPullText(received: Int) -> String {
        "first sync · \(ProgressLine.grouped(received)) " + (received == 1 ? "item" : "items") + " received"
    }

    /// `8s`, `1m 5s`, `2h 3m`; "now" once the moment has come. Seconds round up, so a
    /// countdown never says 0s while time remains.
    public static func countdown(from now: Date, to moment: Date) -> String {
        let remaining = moment.timeIntervalSince(now)
        guard remaining > 0 else { return "now" }
        return "in " + SpokenDuration.text(seconds: Int(remaining.rounded(.up)))
    }

    /// `14:22` for a moment today, `Nov 21 14:22` for an earlier day (in `timeZone`).
    public static func clockTime(_ moment: Date, now: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moment)
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let time = "\(two(parts.hour)):\(two(parts.minute))"
        if parts.year == today.year && parts.month == today.month && parts.day == today.day {
            return time
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        return "\(month) \(parts.day ?? 1) \(time)"
    }
}
