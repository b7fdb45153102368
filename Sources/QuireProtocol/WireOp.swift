import QuireCore

/// Decodes one op exactly as `Op`'s Codable conformance reads it, but faster.
///
/// A field value is null, a string, a boolean, a list of strings or an object (`FieldValue`), and a
/// decoder can only find out which by trying. This tries the common shapes first (null, then
/// a string), so a typical op decodes without a single failed attempt; a failed attempt is
/// what makes decoding a batch slow (each builds an error with its coding path). Unknown field
/// names are refused, as `Op` refuses them.
struct WireOp: Decodable {
    let op: Op

    private enum Keys: String, CodingKey { case op, item, kind, baseRev, fields }
    private enum ChangeKeys: String, CodingKey { case from, to }

    /// Any key, so that unknown field names can be named in the error.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        var fields: [Field: FieldChange]?
        if container.contains(.fields), try !container.decodeNil(forKey: .fields) {
            let changes = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .fields)
            var decoded: [Field: FieldChange] = [:]
            for key in changes.allKeys {
                guard let field = Field(rawValue: key.stringValue) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: changes, debugDescription: "unknown field '\(key.stringValue)'")
                }
                let change = try changes.nestedContainer(keyedBy: ChangeKeys.self, forKey: key)
                decoded[field] = FieldChange(
                    from: try WireOp.value(change, .from), to: try WireOp.value(change, .to))
            }
            fields = decoded
        }
        op = Op(
            id: try container.decode(String.self, forKey: .op),
            item: try container.decode(String.self, forKey: .item),
            kind: try container.decode(OpKind.self, forKey: .kind),
            baseRev: try container.decode(Int.self, forKey: .baseRev),
            fields: fields)
    }

    private static func value(
        _ container: KeyedDecodingContainer<ChangeKeys>, _ key: ChangeKeys
    ) throws -> FieldValue {
        if try container.decodeNil(forKey: key) { return .null }
        if let text = try? container.decode(String.self, forKey: key) { return .string(text) }
        if let flag = try? container.decode(Bool.self, forKey: key) { return .bool(flag) }
        if let list = try? container.decode([String].self, forKey: key) { return .strings(list) }
        // The object shapes (a hash, a MAC, a sealed value) and the error for anything else are
        // `FieldValue`'s own.
        return try container.decode(FieldValue.self, forKey: key)
    }
}
