import QuireCore

/// One page of `GET /v1/snapshot?after=ID&limit=N`: the user's items ordered by id, tombstones
/// included (until purged), so that a resyncing device ends with exactly the server's items.
///
/// A device told to resync (`410 resync_required`) reads pages from `after` = nothing until
/// `next` is null, reconciles its copy against them (keeping its pending changes), and then
/// pulls with the `cursor` of the FIRST page: every change made while it was paging comes again
/// through the feed, so nothing falls between the snapshot and the feed.
public struct SnapshotPage: Hashable, Codable, Sendable {
    /// Items and tombstones, ordered by id, at most `limit`.
    public var items: [ChangeItem]
    /// The id to pass as `after` for the next page; null on the last page.
    public var next: String?
    /// The feed position at the time this page was read.
    public var cursor: String
    /// What the server's database kept of its earlier lives: for each earlier epoch, the last
    /// sequence number it holds (`ServerVersion`'s text form). A device whose copy rests on a
    /// version beyond it holds changes a restore lost. Nil from older servers.
    public var lineage: ServerVersion?

    /// The key ring's version when the account is encrypted (see `SyncResponse.keyring`).
    public var keyring: Int?

    public init(
        items: [ChangeItem], next: String?, cursor: String, lineage: ServerVersion? = nil, keyring: Int? = nil
    ) {
        self.items = items
        self.next = next
        self.cursor = cursor
        self.lineage = lineage
        self.keyring = keyring
    }

    enum CodingKeys: String, CodingKey { case items, next, cursor, lineage, keyring }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([ChangeItem].self, forKey: .items)
        next = try container.decodeIfPresent(String.self, forKey: .next)
        cursor = try container.decode(String.self, forKey: .cursor)
        lineage = try container.decodeIfPresent(String.self, forKey: .lineage).flatMap(ServerVersion.init)
        keyring = try container.decodeIfPresent(Int.self, forKey: .keyring)
    }

    /// Writes `next` as null on the last page rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
        try container.encode(cursor, forKey: .cursor)
        try container.encodeIfPresent(lineage?.description, forKey: .lineage)
        try container.encodeIfPresent(keyring, forKey: .keyring)
    }
}
