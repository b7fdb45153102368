/// What an item is: a free note, or a task with a checkbox.
public enum ItemKind: String, Codable, Sendable, CaseIterable, Hashable {
    case note
    case task
}

/// How urgent a task is; `none` sorts lowest.
public enum Priority: String, Codable, Sendable, CaseIterable, Hashable, Comparable {
    case none
    case low
    case medium
    case high

    /// Rank used for sorting: higher is more urgent.
    public var rank: Int {
        switch self {
        case .none: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        }
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}

/// What an item's badge shows: where its latest local change stands with the server.
public enum SyncState: String, Codable, Sendable, CaseIterable, Hashable {
    case synced
    case pending
    case syncing
    case needsReview = "needs-review"
    case error
}
