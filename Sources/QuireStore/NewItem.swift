import Foundation
import QuireCore

/// A new item as a person describes it; the store adds the id, times and sync bookkeeping.
public struct NewItem: Sendable, Hashable {
    public var kind: ItemKind
    public var title: String
    public var body: String
    public var tags: [String]
    public var due: Day?
    public var priority: Priority
    public var pinned: Bool
    /// Hierarchical with dots (`home.garden`); nil for none.
    public var project: String?
    /// A recurring task's rule: tasks with a due date only.
    public var recur: Recurrence?
    public var wait: Day?
    public var scheduled: Day?

    public init(
        kind: ItemKind = .note, title: String, body: String = "", tags: [String] = [], due: Day? = nil,
        priority: Priority = .none, pinned: Bool = false, project: String? = nil, recur: Recurrence? = nil,
        wait: Day? = nil, scheduled: Day? = nil
    ) {
        self.kind = kind
        self.title = title
        self.body = body
        self.tags = tags
        self.due = due
        self.priority = priority
        self.pinned = pinned
        self.project = project
        self.recur = recur
        self.wait = wait
        self.scheduled = scheduled
    }
}

/// One item read from an import file, before it meets the store.
///
/// With an `id` that the store already holds, the import updates that item (a re-import of an
/// export changes nothing); without one, or with an unknown id, it creates the item.
public struct ImportEntry: Sendable, Hashable {
    public var id: String?
    public var kind: ItemKind
    public var title: String
    public var body: String
    public var tags: [String]
    public var done: Bool
    public var doneAt: Date?
    public var due: Day?
    public var priority: Priority
    public var pinned: Bool
    public var project: String?
    public var recur: Recurrence?
    public var wait: Day?
    public var scheduled: Day?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var deleted: Bool

    public init(
        id: String? = nil, kind: ItemKind = .note, title: String, body: String = "", tags: [String] = [],
        done: Bool = false, doneAt: Date? = nil, due: Day? = nil, priority: Priority = .none,
        pinned: Bool = false, project: String? = nil, recur: Recurrence? = nil, wait: Day? = nil,
        scheduled: Day? = nil, createdAt: Date? = nil, updatedAt: Date? = nil, deleted: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.tags = tags
        self.done = done
        self.doneAt = doneAt
        self.due = due
        self.priority = priority
        self.pinned = pinned
        self.project = project
        self.recur = recur
        self.wait = wait
        self.scheduled = scheduled
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deleted = deleted
    }

    /// The editable fields this entry sets.
    var fieldValues: [Field: FieldValue] {
        [
            .kind: .string(kind.rawValue), .title: .string(title), .body: .string(body),
            .tags: .strings(Tags.normalize(tags)), .done: .bool(done),
            .due: due.map { .string($0.description) } ?? .null, .priority: .string(priority.rawValue),
            .pinned: .bool(pinned), .project: project.map { .string($0) } ?? .null,
            .recur: recur.map { .string($0.description) } ?? .null,
            .wait: wait.map { .string($0.description) } ?? .null,
            .scheduled: scheduled.map { .string($0.description) } ?? .null,
        ]
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Hashable {
    /// Items that were not in the store before.
    public var created = 0
    /// Items already in the store whose fields the import changed.
    public var updated = 0
    /// Items already in the store exactly as imported.
    public var unchanged = 0
    /// Items deleted in this store; the import leaves them deleted (restore them first).
    public var skippedDeleted = 0

    public init() {}
}

/// Which kind of change wrote a version into an item's history.
public enum ChangeOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// A person's edit on this device (CLI or TUI).
    case local
    /// `quire import`.
    case `import`
    /// A version pulled from the server.
    case remote
    /// A merge of local and remote changes made without asking.
    case merge
    /// A person's resolution of a conflict.
    case resolve
}
