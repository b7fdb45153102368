/// The `200` answer of `POST /v1/sync`: one result per pushed op, then a page of changes.
public struct SyncResponse: Hashable, Codable, Sendable {
    /// One result per op of the request, in the same order.
    public var results: [OpResult]
    /// Whole items changed since the request's cursor, in sequence order, at most `limit`.
    /// Deletes arrive as tombstones (`deleted: true`).
    public var changes: [ChangeItem]
    /// Where the next pull starts; opaque: store it and send it back unchanged.
    public var cursor: String
    /// True when another page of changes waits: pull again right away.
    public var more: Bool
    /// The server database's epoch. It changes when the database is created anew or restored
    /// from a backup; a device that sees it change re-sends what the server may have lost.
    public var epoch: String
    /// `StateHash` of the user's live items at `cursor`. Meaningful when `more` is false: a
    /// device that has caught up compares it with the hash of its own copy.
    public var stateHash: String
    /// The version of the account's key ring when the account is encrypted (absent when it is
    /// not): a device without the keys is told to unlock, and one whose keys are older than this
    /// version fetches the key ring again (a rotation) before it opens what this page carries.
    public var keyring: Int?

    public init(
        results: [OpResult], changes: [ChangeItem], cursor: String, more: Bool, epoch: String, stateHash: String,
        keyring: Int? = nil
    ) {
        self.results = results
        self.changes = changes
        self.cursor = cursor
        self.more = more
        self.epoch = epoch
        self.stateHash = stateHash
        self.keyring = keyring
    }
}
