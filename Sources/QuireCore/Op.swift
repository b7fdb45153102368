/// What an operation does to an item.
public enum OpKind: String, Codable, Sendable, Hashable {
    case create
    case update
    case delete
}

/// One operation of the outbox and the wire: intent, not a snapshot.
///
/// `id` is a client-made UUIDv7 and the idempotency key (`op` on the wire). `fields` carries only what the op
/// changes, each with the value it changed from and the absolute value it sets, so a late
/// replay is harmless. Deletes carry no fields.
public struct Op: Hashable, Codable, Sendable {
    public var id: String
    public var item: String
    public var kind: OpKind
    public var baseRev: Int
    public var fields: [Field: FieldChange]?

    public init(id: String, item: String, kind: OpKind, baseRev: Int, fields: [Field: FieldChange]? = nil) {
        self.id = id
        self.item = item
        self.kind = kind
        self.baseRev = baseRev
        self.fields = fields
    }

    /// The wire's names: the id travels as `op`.
    private enum CodingKeys: String, CodingKey {
        case id = "op"
        case item, kind, baseRev, fields
    }
}
