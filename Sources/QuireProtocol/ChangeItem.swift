import Foundation
import QuireCore

/// An item as the wire carries it: in `changes`, in a conflict's `current`, in snapshot pages.
///
/// Exactly SPEC.md's fields, every one always present (`due` as null when unset); times are
/// RFC 3339 text whatever the coder's date strategy. Device-local bookkeeping (`doneAt`,
/// `syncState`) does not travel.
public struct ChangeItem: Hashable, Sendable, Identifiable {
    public var id: String
    /// The server revision; grows by one at every write of the item.
    public var rev: Int
    /// True for a tombstone; its other fields keep the values the item had when deleted.
    public var deleted: Bool
    public var kind: ItemKind
    public var title: String
    public var body: String
    /// Sorted and unique (see `Tags.normalize`).
    public var tags: [String]
    public var done: Bool
    public var due: Day?
    public var priority: Priority
    public var pinned: Bool
    /// Hierarchical with dots (`home.garden`); null for none. Absent in what older servers
    /// stored, which reads as none.
    public var project: String?
    /// A recurring task's rule; null for none. Absent (none) in what older servers stored, as
    /// are `wait` and `scheduled`.
    public var recur: Recurrence?
    public var wait: Day?
    public var scheduled: Day?
    /// The files attached (`AttachedFile`), each as its one-line reference on the wire; the key
    /// is left out when there are none, so items without files read as before.
    public var attachments: [AttachedFile]
    public var createdAt: Date
    public var updatedAt: Date
    /// When `done` last became true, by the server's clock; nil while open (and for items a
    /// server stored before it kept the time).
    public var doneAt: Date?
    /// Which version of the server's history this is (`ServerVersion`); nil from older servers.
    public var version: ServerVersion?
    /// An encrypted account's item: every field's sealed value, which the server keeps without
    /// reading; the plain fields above then hold their defaults and mean nothing. A device opens
    /// them into a plain item (`QuireSync`'s `ItemSealer`) before anything else sees the item.
    /// On the wire the item has a `sealed` object in place of its field keys.
    public var sealed: [Field: SealedValue]?

    public init(
        id: String, rev: Int, deleted: Bool = false, kind: ItemKind = .note, title: String, body: String = "",
        tags: [String] = [], done: Bool = false, due: Day? = nil, priority: Priority = .none, pinned: Bool = false,
        project: String? = nil, recur: Recurrence? = nil, wait: Day? = nil, scheduled: Day? = nil,
        attachments: [AttachedFile] = [], createdAt: Date, updatedAt: Date, doneAt: Date? = nil,
        version: ServerVersion? = nil, sealed: [Field: SealedValue]? = nil
    ) {
        self.id = id
        self.rev = rev
        self.deleted = deleted
        self.kind = kind
        self.title = title
        self.body = body
        self.tags = tags
        self.done = done
        self.due = due
        self.priority = priority
        self.pinned = pinned
        self.project = project
        self.recur = recur
        self.wait = wait
        self.scheduled = scheduled
        self.attachments = Attachments.normalize(attachments)
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.doneAt = doneAt
        self.version = version
        self.sealed = sealed
    }
}

extension ChangeItem {
    /// A tombstone that carries no content (SPEC: tombstones carry no content), as a server
    /// keeps every deleted item: a live item always has a title, and a sealed one carries its
    /// sealed values.
    public var isContentless: Bool { deleted && sealed == nil && title.isEmpty }

    /// Whether the item's values are sealed (an encrypted account's item).
    public var isSealed: Bool { sealed != nil }

    /// The item as its tombstone: deleted, with its id, revision, times and version, and no
    /// content, plain or sealed. What the server keeps of a deleted item (SPEC): the title, body
    /// and tags stay on the devices that had them (trash, history), not on the server, not in
    /// pages to new devices. A device that restores the item sends every field again.
    public var tombstone: ChangeItem {
        ChangeItem(
            id: id, rev: rev, deleted: true, title: "", createdAt: createdAt, updatedAt: updatedAt, version: version)
    }
}

// MARK: - Conversion to and from the domain item

extension ChangeItem {
    /// The wire form of a domain item (its `doneAt` and `syncState` stay behind).
    public init(_ item: Item) {
        self.init(
            id: item.id, rev: item.rev, deleted: item.deleted, kind: item.kind, title: item.title, body: item.body,
            tags: item.tags, done: item.done, due: item.due, priority: item.priority, pinned: item.pinned,
            project: item.project, recur: item.recur, wait: item.wait, scheduled: item.scheduled,
            attachments: item.attachments, createdAt: item.createdAt, updatedAt: item.updatedAt,
            doneAt: item.done ? item.doneAt : nil,
            version: item.serverVersion)
    }

    /// The domain item for this wire item.
    ///
    /// The server's `doneAt` wins; `fallback` is used only when the server sent none (an item it
    /// stored before it kept the time). It is dropped when the item is not done.
    public func item(syncState: SyncState, doneAt fallback: Date?) -> Item {
        Item(
            id: id, kind: kind, title: title, body: body, tags: tags, done: done,
            doneAt: done ? (doneAt ?? fallback) : nil, due: due, priority: priority, pinned: pinned,
            project: project, recur: recur, wait: wait, scheduled: scheduled, attachments: attachments,
            createdAt: createdAt,
            updatedAt: updatedAt, deleted: deleted, rev: rev,
            syncState: syncState,
            serverVersion: version)
    }

    /// The value of one editable field, in the form operations carry (as `Item.value(of:)`).
    public func value(of field: Field) -> FieldValue {
        switch field {
        case .kind: .string(kind.rawValue)
        case .title: .string(title)
        case .body: .string(body)
        case .tags: .strings(tags)
        case .done: .bool(done)
        case .due: due.map { .string($0.description) } ?? .null
        case .priority: .string(priority.rawValue)
        case .pinned: .bool(pinned)
        case .project: project.map { .string($0) } ?? .null
        case .recur: recur.map { .string($0.description) } ?? .null
        case .wait: wait.map { .string($0.description) } ?? .null
        case .scheduled: scheduled.map { .string($0.description) } ?? .null
        case .attachments: Attachments.value(attachments)
        }
    }
}

// MARK: - Codable

extension ChangeItem: Codable {
    enum CodingKeys: String, CodingKey {
        case id, rev, deleted, kind, title, body, tags, done, due, priority, pinned, project, recur, wait, scheduled,
            attachments, createdAt, updatedAt
        case doneAt, version, sealed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> Date { try container.decodeTime(forKey: key) }
        let sealed = try container.decodeIfPresent([String: FieldValue].self, forKey: .sealed).map {
            try ChangeItem.sealedFields($0, in: container)
        }
        // A sealed item has no plain field keys; a plain one has every one but the newer ones.
        func plain<Value: Decodable>(_ type: Value.Type, _ key: CodingKeys, or fallback: Value) throws -> Value {
            sealed == nil ? try container.decode(type, forKey: key) : fallback
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            rev: try container.decode(Int.self, forKey: .rev),
            deleted: try container.decode(Bool.self, forKey: .deleted),
            kind: try plain(ItemKind.self, .kind, or: .note),
            title: try plain(String.self, .title, or: ""),
            body: try plain(String.self, .body, or: ""),
            tags: try plain([String].self, .tags, or: []),
            done: try plain(Bool.self, .done, or: false),
            due: try plain(Day?.self, .due, or: nil),
            priority: try plain(Priority.self, .priority, or: .none),
            pinned: try plain(Bool.self, .pinned, or: false),
            project: try container.decodeIfPresent(String.self, forKey: .project),
            recur: try container.decodeIfPresent(Recurrence.self, forKey: .recur),
            wait: try container.decodeIfPresent(Day.self, forKey: .wait),
            scheduled: try container.decodeIfPresent(Day.self, forKey: .scheduled),
            attachments: try Attachments.parse(container.decodeIfPresent([String].self, forKey: .attachments) ?? []),
            createdAt: try time(.createdAt),
            updatedAt: try time(.updatedAt),
            doneAt: try container.decodeTimeIfPresent(forKey: .doneAt),
            version: try container.decodeIfPresent(String.self, forKey: .version).flatMap(ServerVersion.init),
            sealed: sealed)
    }

    /// The `sealed` object's values by field: every key a field, every value sealed.
    private static func sealedFields(_ values: [String: FieldValue], in container: KeyedDecodingContainer<CodingKeys>)
        throws -> [Field: SealedValue]
    {
        var fields: [Field: SealedValue] = [:]
        for (name, value) in values {
            guard let field = Field(rawValue: name), case .sealed(let sealedValue) = value else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sealed, in: container, debugDescription: "not a sealed field: \(name)")
            }
            fields[field] = sealedValue
        }
        return fields
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rev, forKey: .rev)
        try container.encode(deleted, forKey: .deleted)
        if let sealed {
            let values = Dictionary(uniqueKeysWithValues: sealed.map { ($0.key.rawValue, FieldValue.sealed($0.value)) })
            try container.encode(values, forKey: .sealed)
        } else {
            try encodePlainFields(to: &container)
        }
        try container.encode(Timestamp.string(from: createdAt), forKey: .createdAt)
        try container.encode(Timestamp.string(from: updatedAt), forKey: .updatedAt)
        try container.encode(doneAt.map(Timestamp.string(from:)), forKey: .doneAt)
        try container.encodeIfPresent(version?.description, forKey: .version)
    }

    private func encodePlainFields(to container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(tags, forKey: .tags)
        try container.encode(done, forKey: .done)
        try container.encode(due, forKey: .due)
        try container.encode(priority, forKey: .priority)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(project, forKey: .project)
        try container.encode(recur, forKey: .recur)
        try container.encode(wait, forKey: .wait)
        try container.encode(scheduled, forKey: .scheduled)
        if !attachments.isEmpty { try container.encode(attachments.map(\.wireText), forKey: .attachments) }
    }
}
