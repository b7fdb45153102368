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
    /// The server version the change was made against. When given, the server applies the op
    /// unconditionally only to exactly that version, never to another that happens to carry the
    /// same revision number (as after a restore from a backup).
    public var baseVersion: ServerVersion?
    /// Set only when a device re-sends what a restored server lost: the version its copy holds,
    /// whose every change the op brings back, so that other devices can tell the server's new
    /// version already holds theirs.
    public var basis: ServerVersion?

    public init(
        id: String, item: String, kind: OpKind, baseRev: Int, fields: [Field: FieldChange]? = nil,
        baseVersion: ServerVersion? = nil, basis: ServerVersion? = nil
    ) {
        self.id = id
        self.item = item
        self.kind = kind
        self.baseRev = baseRev
        self.fields = fields
        self.baseVersion = baseVersion
        self.basis = basis
    }

    /// The wire's names: the id travels as `op`.
    private enum CodingKeys: String, CodingKey {
        case id = "op"
        case item, kind, baseRev, fields, baseVersion, basis
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func version(_ key: CodingKeys) throws -> ServerVersion? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let version = ServerVersion(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "not a server version: \(text)")
            }
            return version
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            item: try container.decode(String.self, forKey: .item),
            kind: try container.decode(OpKind.self, forKey: .kind),
            baseRev: try container.decode(Int.self, forKey: .baseRev),
            fields: try container.decodeIfPresent([Field: FieldChange].self, forKey: .fields),
            baseVersion: try version(.baseVersion), basis: try version(.basis))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(item, forKey: .item)
        try container.encode(kind, forKey: .kind)
        try container.encode(baseRev, forKey: .baseRev)
        try container.encodeIfPresent(fields, forKey: .fields)
        try container.encodeIfPresent(baseVersion?.description, forKey: .baseVersion)
        try container.encodeIfPresent(basis?.description, forKey: .basis)
    }
}
