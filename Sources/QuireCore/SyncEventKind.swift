/// The kinds of entries in the sync event log; the raw values are what the log stores and
/// `quire status --json` prints.
public enum SyncEventKind: String, Hashable, Sendable, CaseIterable, Codable {
    case syncStart = "SYNC_START"
    case pushOK = "PUSH_OK"
    case pullOK = "PULL_OK"
    case conflict = "CONFLICT"
    case merged = "MERGED"
    case retry = "RETRY"
    case deadLetter = "DEAD_LETTER"
    case resync = "RESYNC"
    case auth = "AUTH"
    /// An item arrived sealed and did not open (tampered, or under a key this device lacks).
    case unreadable = "UNREADABLE"
}

/// Why a sync exchange failed, as the event log records it for processes that did not see it
/// happen (`quire status` tells offline from error by it).
public enum SyncFailureKind: String, Hashable, Sendable, CaseIterable, Codable {
    /// The server could not be reached (no network, refused connection, timeout).
    case unreachable
    /// The server answered with an error status.
    case server
    /// The server answered something that is not a valid answer.
    case invalidAnswer = "invalid-answer"
    /// The account is encrypted and this device holds no keys (on an `AUTH` event).
    case locked
}
