/// Where one outbox operation stands, as far as its item's badge is concerned.
public struct OpStanding: Hashable, Sendable {
    /// Where the op is on its way to the server.
    public enum Stage: Hashable, Sendable {
        /// Waiting to be sent (or sent and put back).
        case waiting
        /// Sent; its answer has not been applied yet.
        case sending
        /// Refused by the server for good (a dead letter).
        case refused
    }

    public var stage: Stage
    /// How many times the op was sent.
    public var attempts: Int
    /// Whether its last send met a failure of the server's (not the network's).
    public var lastSendFailed: Bool

    public init(stage: Stage, attempts: Int = 0, lastSendFailed: Bool = false) {
        self.stage = stage
        self.attempts = attempts
        self.lastSendFailed = lastSendFailed
    }
}

/// The one rule for an item's badge, used by the store after a local edit and by sync after
/// every change it makes: SPEC's badges are never set by hand, they follow from the facts.
public enum SyncBadge {
    /// Sends of one op, the last of them failed by the server, after which its item shows the
    /// error badge (the op keeps being retried).
    public static let failedAttemptsForError = 5

    /// Needs review while a conflict waits; error (`✗`, "failed") for a change the server
    /// refused or keeps failing; pending while an op waits; syncing while all of them are in
    /// flight; synced when nothing travels.
    public static func state(needsReview: Bool, ops: some Sequence<OpStanding>) -> SyncState {
        if needsReview { return .needsReview }
        var waiting = false
        var sending = false
        for op in ops {
            switch op.stage {
            case .refused: return .error
            case _ where op.attempts >= failedAttemptsForError && op.lastSendFailed: return .error
            case .waiting: waiting = true
            case .sending: sending = true
            }
        }
        if waiting { return .pending }
        return sending ? .syncing : .synced
    }
}

extension SyncBadge {
    /// What screens call an item that no server has and that nothing carries to one: never
    /// acknowledged (revision 0) and no op on its way, as after discarding a create the server
    /// refused. It is shown with its own badge and never as synced.
    public static func isLocalOnly(_ item: Item) -> Bool {
        item.rev == 0 && item.syncState == .synced
    }

    /// The one-line sync state people read (`quire show`, the item view).
    public static func description(of item: Item) -> String {
        if isLocalOnly(item) { return "local only (on this device only, never on the server)" }
        return item.syncState.rawValue + (item.rev > 0 ? " (revision \(item.rev))" : " (never synced)")
    }

    /// The badge of local-only items, beside `●` pending, `↻` syncing, `!` and `✗`.
    public static let localOnlyMark = "◌"
}
