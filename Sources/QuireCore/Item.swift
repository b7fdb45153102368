import Foundation

/// A note or a task: one row of the item table, as SPEC.md defines it.
///
/// `createdAt` and `updatedAt` are for display and sorting only; conflicts are decided by
/// revisions and field values, never by clocks.
public struct Item: Hashable, Sendable, Identifiable {
    public var id: String
    public var kind: ItemKind
    public var title: String
    public var body: String
    /// A set, kept sorted and unique (see `Tags.normalize`).
    public var tags: [String]
    public var done: Bool
    /// When `done` last became true; nil while open.
    public var doneAt: Date?
    public var due: Day?
    public var priority: Priority
    public var pinned: Bool
    /// A task's project or a note's notebook, hierarchical with dots (`home.garden`); nil for
    /// none. Kept as typed; matched without regard to case (`Projects`).
    public var project: String?
    /// A recurring task's rule; completing it brings up the next occurrence (`nextOccurrence`).
    public var recur: Recurrence?
    /// Hidden from default lists until this day (a waiting task).
    public var wait: Day?
    /// The day a task is planned to be started on.
    public var scheduled: Day?
    /// The files attached, a set kept sorted and unique (`Attachments.normalize`).
    public var attachments: [AttachedFile]
    public var createdAt: Date
    public var updatedAt: Date
    /// A tombstone until purged; `quire restore` clears it.
    public var deleted: Bool
    /// The server revision this device last saw for the item; 0 = never synced.
    public var rev: Int
    /// Which server version this device's copy rests on (`ServerVersion`); nil before the
    /// server has acknowledged any version, or for a copy synced before versions existed.
    public var serverVersion: ServerVersion?
    public var syncState: SyncState

    public init(
        id: String, kind: ItemKind = .note, title: String, body: String = "", tags: [String] = [],
        done: Bool = false, doneAt: Date? = nil, due: Day? = nil, priority: Priority = .none,
        pinned: Bool = false, project: String? = nil, recur: Recurrence? = nil, wait: Day? = nil,
        scheduled: Day? = nil, attachments: [AttachedFile] = [], createdAt: Date, updatedAt: Date? = nil,
        deleted: Bool = false, rev: Int = 0,
        syncState: SyncState = .pending, serverVersion: ServerVersion? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.tags = Tags.normalize(tags)
        self.done = done
        self.doneAt = doneAt
        self.due = due
        self.priority = priority
        self.pinned = pinned
        self.project = project
        self.recur = recur
        self.wait = wait
        self.scheduled = scheduled
        self.attachments = Attachments.normalize(attachments)
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.deleted = deleted
        self.rev = rev
        self.syncState = syncState
        self.serverVersion = serverVersion
    }
}

// MARK: - Field access

extension Item {
    /// The value of one editable field, in the form operations carry.
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

    /// All editable fields and their values.
    public var fieldValues: [Field: FieldValue] {
        Dictionary(uniqueKeysWithValues: Field.allCases.map { ($0, value(of: $0)) })
    }

    /// Sets one field from an operation's value, checking its type and range.
    ///
    /// `doneAt` follows `done`: it is set to `now` when `done` becomes true and cleared when it
    /// becomes false.
    public mutating func set(_ field: Field, to value: FieldValue, now: Date) throws(ValidationError) {
        switch (field, value) {
        case (.kind, .string(let text)):
            guard let parsed = ItemKind(rawValue: text) else { throw .invalidKind(text) }
            kind = parsed
        case (.title, .string(let text)):
            title = try Validation.title(text)
        case (.body, .string(let text)):
            body = try Validation.body(text)
        case (.tags, .strings(let list)):
            tags = try Validation.tags(list)
        case (.tags, .null):
            tags = []
        case (.done, .bool(let flag)):
            if flag && !done { doneAt = now }
            if !flag { doneAt = nil }
            done = flag
        case (.due, _), (.wait, _), (.scheduled, _):
            let day: Day?
            switch value {
            case .null: day = nil
            case .string(let text):
                guard let parsed = Day(text) else { throw .invalidDate(text) }
                day = parsed
            default: throw .wrongType(field: field)
            }
            if field == .due { due = day } else if field == .wait { wait = day } else { scheduled = day }
        case (.priority, .string(let text)):
            guard let parsed = Priority(rawValue: text) else { throw .invalidPriority(text) }
            priority = parsed
        case (.pinned, .bool(let flag)):
            pinned = flag
        case (.project, .null):
            project = nil
        case (.project, .string(let text)):
            guard let name = try Validation.project(text) else { throw .invalidProject(text) }
            project = name
        case (.recur, .null):
            recur = nil
        case (.recur, .string(let text)):
            guard let rule = Recurrence(text) else { throw .invalidRecurrence(text) }
            recur = rule
        case (.attachments, .strings(let list)):
            attachments = try Attachments.parse(list)
        case (.attachments, .null):
            attachments = []
        default:
            throw .wrongType(field: field)
        }
    }

    /// A copy with every given field set (see `set(_:to:now:)`).
    public func applying(_ values: [Field: FieldValue], now: Date) throws(ValidationError) -> Item {
        var copy = self
        for field in Field.allCases {
            if let value = values[field] { try copy.set(field, to: value, now: now) }
        }
        return copy
    }

    /// The fields whose values differ from `old`, each with its old and new value.
    public func changes(since old: Item) -> [Field: FieldChange] {
        var result: [Field: FieldChange] = [:]
        for field in Field.allCases {
            let before = old.value(of: field)
            let after = value(of: field)
            if before != after { result[field] = FieldChange(from: before, to: after) }
        }
        return result
    }
}
