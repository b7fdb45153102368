import QuireCore

/// The body of `POST /v1/sync`: a batch of operations to push and where to pull from.
///
/// ```json
/// {"protocol": 1, "device": "0193…", "cursor": null, "limit": 500, "ops": [...]}
/// ```
/// A device with nothing to push sends `"ops": []` and pulls with the same call.
public struct SyncRequest: Hashable, Codable, Sendable {
    /// The protocol version the client speaks (`SyncProtocol.version`).
    public var protocolVersion: Int
    /// The device's id (a UUID), stable for the life of a local database.
    public var device: String
    /// Nil for a device's first pull; else the `cursor` of the last answer, unchanged.
    public var cursor: String?
    /// How many changes the answer may carry at most (1...`SyncLimits.maxPageLimit`); nil lets
    /// the server use `SyncLimits.defaultPageLimit`.
    public var limit: Int?
    /// The operations to apply, in outbox order. Ops for one item apply in this order.
    public var ops: [Op]

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case device, cursor, limit, ops
    }

    public init(
        protocolVersion: Int = SyncProtocol.version, device: String, cursor: String?, limit: Int? = nil, ops: [Op] = []
    ) {
        self.protocolVersion = protocolVersion
        self.device = device
        self.cursor = cursor
        self.limit = limit
        self.ops = ops
    }

    /// Reads `protocol` first: a request of another version throws `UnsupportedProtocolVersion`
    /// before the rest of its shape is judged (a newer client may send fields this build does
    /// not know). Ops decode as `Op`'s own coding does (see `WireOp`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try container.decode(Int.self, forKey: .protocolVersion)
        guard protocolVersion == SyncProtocol.version else {
            throw UnsupportedProtocolVersion(version: protocolVersion)
        }
        device = try container.decode(String.self, forKey: .device)
        cursor = try container.decodeIfPresent(String.self, forKey: .cursor)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        ops = try container.decodeIfPresent([WireOp].self, forKey: .ops)?.map(\.op) ?? []
    }

    /// Writes every key, `cursor` as null on a first pull, as SPEC.md shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(protocolVersion, forKey: .protocolVersion)
        try container.encode(device, forKey: .device)
        try container.encode(cursor, forKey: .cursor)
        try container.encodeIfPresent(limit, forKey: .limit)
        try container.encode(ops, forKey: .ops)
    }
}

/// Thrown while decoding a `SyncRequest` whose `protocol` is not `SyncProtocol.version`.
public struct UnsupportedProtocolVersion: Error, Hashable, Sendable {
    public let version: Int
}
