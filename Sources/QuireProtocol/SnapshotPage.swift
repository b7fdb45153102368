/// One page of `GET /v1/snapshot?after=ID&limit=N`: the user's live items ordered by id.
///
/// A device told to resync (`410 resync_required`) reads pages from `after` = nothing until
/// `next` is null, reconciles its copy against them (keeping its pending changes), and then
/// pulls with the `cursor` of the FIRST page: every change made while it was paging comes again
/// through the feed, so nothing falls between the snapshot and the feed.
public struct SnapshotPage: Hashable, Codable, Sendable {
    /// Live items (no tombstones), ordered by id, at most `limit`.
    public var items: [ChangeItem]
    /// The id to pass as `after` for the next page; null on the last page.
    public var next: String?
    /// The feed position at the time this page was read.
    public var cursor: String

    public init(items: [ChangeItem], next: String?, cursor: String) {
        self.items = items
        self.next = next
        self.cursor = cursor
    }

    enum CodingKeys: String, CodingKey { case items, next, cursor }

    /// Writes `next` as null on the last page rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
        try container.encode(cursor, forKey: .cursor)
    }
}
