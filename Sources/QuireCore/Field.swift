/// The fields of an item that a person edits and that operations carry.
///
/// Bookkeeping fields (`id`, `createdAt`, `updatedAt`, `deleted`, `rev`, `syncState`) are not
/// here: they are never merged field by field.
public enum Field: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, Hashable, Comparable {
    case kind
    case title
    case body
    case tags
    case done
    case due
    case priority
    case pinned
    /// Hierarchical with dots (`home.garden`): a task's project and a note's notebook alike.
    case project
    /// A recurring task's rule (`Recurrence`): tasks with a due date only.
    case recur
    /// A date: the task is hidden from default lists until then.
    case wait
    case scheduled
    /// The files attached to the item (`AttachedFile`), carried as a set of one-line references.
    case attachments

    public static func < (lhs: Field, rhs: Field) -> Bool {
        lhs.position < rhs.position
    }

    /// Hashed by its place among the fields, not by its name (which a raw-valued enum hashes
    /// otherwise): a pulled item looks up its thirteen sealed values by field, and hashing each
    /// name's text showed in the time it takes to open one.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
    }

    /// The field's place in `allCases`.
    var position: Int {
        switch self {
        case .kind: 0
        case .title: 1
        case .body: 2
        case .tags: 3
        case .done: 4
        case .due: 5
        case .priority: 6
        case .pinned: 7
        case .project: 8
        case .recur: 9
        case .wait: 10
        case .scheduled: 11
        case .attachments: 12
        }
    }
}

/// A field's value as operations carry it: JSON null, a string, a bool, a list of strings,
/// or (only as a body's `from`) the SHA-256 of a string. An encrypted account's ops carry
/// `sealed` values and, as `from`, only the `mac` of the value changed from (SPEC: End-to-end
/// encryption).
public enum FieldValue: Hashable, Sendable {
    case null
    case string(String)
    case bool(Bool)
    case strings([String])
    /// Lowercase hex SHA-256 of a UTF-8 string; stands in for a long body's previous value.
    case sha256(String)
    /// A value sealed for one item and field, with the MAC of its plain value.
    case sealed(SealedValue)
    /// The MAC of a plain value, standing in for it as an encrypted op's `from`.
    case mac(String)

    /// A value's text, or null for none (a due date, a project, a rule).
    public static func text(_ value: (any CustomStringConvertible)?) -> FieldValue {
        value.map { .string($0.description) } ?? .null
    }

    /// Bytes decide, not Swift's canonical equivalence: a device that re-encoded `é` as `e`
    /// and an accent changed the text, and the change must be recorded, sent and merged.
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.string(let a), .string(let b)), (.sha256(let a), .sha256(let b)): a.utf8.elementsEqual(b.utf8)
        case (.bool(let a), .bool(let b)): a == b
        case (.strings(let a), .strings(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
        case (.sealed(let a), .sealed(let b)): a == b
        case (.mac(let a), .mac(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let flag): hasher.combine(flag)
        case .string(let text), .sha256(let text): hasher.combine(Array(text.utf8))
        case .strings(let texts): hasher.combine(texts.map { Array($0.utf8) })
        case .sealed(let value): hasher.combine(value)
        case .mac(let text): hasher.combine(text)
        }
    }
}

extension FieldValue: Codable {
    private enum HashKey: String, CodingKey { case sha256, sealed, mac }

    /// The most common shapes are tried first: every failed attempt costs a thrown error, and
    /// a large sync decodes hundreds of thousands of values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let list = try? container.decode([String].self) {
            self = .strings(list)
        } else if let keyed = try? decoder.container(keyedBy: HashKey.self) {
            if let sealed = try keyed.decodeIfPresent(String.self, forKey: .sealed) {
                self = .sealed(SealedValue(text: sealed, mac: try keyed.decode(String.self, forKey: .mac)))
            } else if let mac = try keyed.decodeIfPresent(String.self, forKey: .mac) {
                self = .mac(mac)
            } else {
                self = .sha256(try keyed.decode(String.self, forKey: .sha256))
            }
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "expected null, a string, a bool, a list of strings, {\"sha256\": HEX}, {\"mac\": MAC} or {\"sealed\": TEXT, \"mac\": MAC}"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .strings(let list):
            var container = encoder.singleValueContainer()
            try container.encode(list)
        case .sha256(let hex):
            var container = encoder.container(keyedBy: HashKey.self)
            try container.encode(hex, forKey: .sha256)
        case .sealed(let value):
            var container = encoder.container(keyedBy: HashKey.self)
            try container.encode(value.text, forKey: .sealed)
            try container.encode(value.mac, forKey: .mac)
        case .mac(let text):
            var container = encoder.container(keyedBy: HashKey.self)
            try container.encode(text, forKey: .mac)
        }
    }
}

/// One field's change inside an operation: the value it was changed from and the value it sets.
public struct FieldChange: Hashable, Codable, Sendable {
    public var from: FieldValue
    public var to: FieldValue

    public init(from: FieldValue, to: FieldValue) {
        self.from = from
        self.to = to
    }
}
