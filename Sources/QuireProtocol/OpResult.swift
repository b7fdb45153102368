/// What the server did with one pushed operation.
public enum OpStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// The op was applied; `rev` is the item's new revision.
    case applied
    /// A field the op changes no longer holds its `from` value (or a delete met a newer
    /// revision); nothing of the op was applied and `current` is the item as the server has it.
    case conflict
    /// An earlier op of the same batch for the same item conflicted, so this one was not tried.
    /// Skipped ops are not remembered: sending the op again later tries it for real.
    case skipped
    /// The op can never apply as it is (`reason` says why); the client should drop it.
    case rejected
}

/// One entry of `results`, in the order of the request's `ops`.
///
/// A replayed op (same `op` id) answers exactly what it answered the first time, except for
/// `skipped`, which was never an answer about the op itself.
public struct OpResult: Hashable, Codable, Sendable {
    /// The op id this result answers.
    public var op: String
    public var status: OpStatus
    /// With `applied`: the item's revision after the op.
    public var rev: Int?
    /// With `conflict`: the item as the server has it (a tombstone when it was deleted).
    public var current: ChangeItem?
    /// With `rejected`: why, as one line for a person.
    public var reason: String?

    public init(op: String, status: OpStatus, rev: Int? = nil, current: ChangeItem? = nil, reason: String? = nil) {
        self.op = op
        self.status = status
        self.rev = rev
        self.current = current
        self.reason = reason
    }

    public static func applied(_ op: String, rev: Int) -> OpResult { OpResult(op: op, status: .applied, rev: rev) }
    public static func conflict(_ op: String, current: ChangeItem) -> OpResult {
        OpResult(op: op, status: .conflict, current: current)
    }
    public static func skipped(_ op: String) -> OpResult { OpResult(op: op, status: .skipped) }
    public static func rejected(_ op: String, reason: String) -> OpResult {
        OpResult(op: op, status: .rejected, reason: reason)
    }
}
