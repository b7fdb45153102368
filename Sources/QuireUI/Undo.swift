import QuireCore

/// How to take back one local action; the runtime turns it into an ordinary store write, so an
/// undo is itself a change that syncs.
public enum UndoEntry: Hashable, Sendable {
    /// Put these field values back (after an edit, a toggle, a pin).
    case revert(id: String, title: String, fields: [Field: FieldValue])
    /// Bring a deleted item back.
    case undelete(id: String, title: String)
    /// Delete an item that the action created.
    case remove(id: String, title: String)

    public var itemID: String {
        switch self {
        case .revert(let id, _, _), .undelete(let id, _), .remove(let id, _): id
        }
    }

    /// What the status bar says once the undo is done.
    public var doneText: String {
        switch self {
        case .revert(_, let title, _): "Undone: change to “\(title)”"
        case .undelete(_, let title): "Undone: delete of “\(title)”"
        case .remove(_, let title): "Undone: creation of “\(title)”"
        }
    }
}

/// A write the person asked for, as the update function describes it; the runtime performs it
/// and hands it back with the outcome, so the update knows what succeeded.
public enum WriteIntent: Hashable, Sendable {
    case create(kind: ItemKind, title: String, body: String)
    case edit(id: String, before: [Field: FieldValue], after: [Field: FieldValue])
    case setDone(id: String, title: String, done: Bool)
    case setPinned(id: String, title: String, pinned: Bool)
    case delete(id: String, title: String)
    /// Brings a deleted item back from the trash.
    case restore(id: String, title: String)
    case undo(UndoEntry)
}

/// Why a write failed, in words for the status bar.
public struct WriteFailure: Error, Hashable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
