import Foundation
import QuireCore

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
    /// With `applied`: the version the op made, and the server's times for it (the server is the
    /// clock of record), so the device needs nothing back from the feed for its own write.
    public var version: ServerVersion?
    /// With `applied`, for a create: the item's creation time as the server holds it. The device
    /// takes it as it takes the other times, so a create whose id names no time (an imported
    /// entry's id of another UUID version, for which the server reads its own clock) shows the
    /// same creation time on every device.
    public var createdAt: Date?
    public var updatedAt: Date?
    public var doneAt: Date?
    /// With `conflict`: the item as the server has it (a tombstone when it was deleted). With
    /// `applied`, when the op was applied to another version than its base (another device had
    /// changed other fields): the whole item after the op, since the device has not seen it.
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

    /// An applied op with everything the device needs to hold what the server holds; `created`
    /// when the op made the item, so its creation time goes with it.
    public static func applied(_ op: String, item: ChangeItem, exact: Bool, created: Bool = false) -> OpResult {
        var result = OpResult(op: op, status: .applied, rev: item.rev)
        result.version = item.version
        if created { result.createdAt = item.createdAt }
        result.updatedAt = item.updatedAt
        result.doneAt = item.doneAt
        if !exact { result.current = item }
        return result
    }

    private enum CodingKeys: String, CodingKey {
        case op, status, rev, version, createdAt, updatedAt, doneAt, current, reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            op: try container.decode(String.self, forKey: .op),
            status: try container.decode(OpStatus.self, forKey: .status),
            rev: try container.decodeIfPresent(Int.self, forKey: .rev),
            current: try container.decodeIfPresent(ChangeItem.self, forKey: .current),
            reason: try container.decodeIfPresent(String.self, forKey: .reason))
        version = try container.decodeIfPresent(String.self, forKey: .version).flatMap(ServerVersion.init)
        createdAt = try container.decodeTimeIfPresent(forKey: .createdAt)
        updatedAt = try container.decodeTimeIfPresent(forKey: .updatedAt)
        doneAt = try container.decodeTimeIfPresent(forKey: .doneAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(op, forKey: .op)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(rev, forKey: .rev)
        try container.encodeIfPresent(version?.description, forKey: .version)
        try container.encodeIfPresent(createdAt.map(Timestamp.string(from:)), forKey: .createdAt)
        try container.encodeIfPresent(updatedAt.map(Timestamp.string(from:)), forKey: .updatedAt)
        try container.encodeIfPresent(doneAt.map(Timestamp.string(from:)), forKey: .doneAt)
        try container.encodeIfPresent(current, forKey: .current)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
    public static func conflict(_ op: String, current: ChangeItem) -> OpResult {
        OpResult(op: op, status: .conflict, current: current)
    }
    public static func skipped(_ op: String) -> OpResult { OpResult(op: op, status: .skipped) }
    public static func rejected(_ op: String, reason: String) -> OpResult {
        OpResult(op: op, status: .rejected, reason: reason)
    }
}
