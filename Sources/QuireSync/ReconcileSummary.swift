/// What applying results or changes did, counted for the event log and `quire sync`.
public struct ReconcileSummary: Hashable, Sendable {
    /// Ops the server applied.
    public var applied = 0
    /// Items whose unsent changes were merged with the server's without asking.
    public var merged = 0
    /// Items that now need review.
    public var needsReview = 0
    /// Ops set aside because the server can never apply them.
    public var deadLetters = 0
    /// Server versions written locally.
    public var pulled = 0
    /// Local versions queued again because the server had lost them.
    public var resent = 0
    /// Server versions that did not open here, newly recorded.
    public var unreadable = 0

    public init() {}

    public static func + (lhs: ReconcileSummary, rhs: ReconcileSummary) -> ReconcileSummary {
        var sum = lhs
        sum.applied += rhs.applied
        sum.merged += rhs.merged
        sum.needsReview += rhs.needsReview
        sum.deadLetters += rhs.deadLetters
        sum.pulled += rhs.pulled
        sum.resent += rhs.resent
        sum.unreadable += rhs.unreadable
        return sum
    }
}
