import Foundation
import QuireCore

/// A write the person asked for, as the update function describes it; the runtime performs it
/// and hands it back with the outcome, so the update knows what succeeded.
public enum WriteIntent: Hashable, Sendable {
    case create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values = DetailsLine.Values())
    /// Sets `after` on an item the editor opened with `before` (SPEC: every write merges with
    /// what changed since it began).
    case edit(id: String, before: [Field: FieldValue], after: [Field: FieldValue])
    case setDone(id: String, title: String, done: Bool)
    case setPinned(id: String, title: String, pinned: Bool)
    case delete(id: String, title: String)
    /// Brings a deleted item back from the trash.
    case restore(id: String, title: String)
    /// Deletes an item of the trash for good (`AppDatabase.purge`).
    case purge(id: String, title: String)
    /// Makes an earlier version (recorded at `recordedAt`) the item's content again: `fields`
    /// set over `before`, the values the history view showed as the item's newest.
    case restoreVersion(
        id: String, title: String, before: [Field: FieldValue], fields: [Field: FieldValue], recordedAt: Date)
}

/// A write the store took: the item written (the new id for a create) and how a write that
/// started from a version met the item (`SavedWrite.Outcome`; `.saved` for the others).
public struct WriteDone: Hashable, Sendable {
    public var id: String
    public var outcome: SavedWrite.Outcome
    /// A completed occurrence of a recurring task: the next one of its series, open.
    public var next: Item?

    public init(id: String, outcome: SavedWrite.Outcome = .saved, next: Item? = nil) {
        self.id = id
        self.outcome = outcome
        self.next = next
    }
}

/// Why a write failed, in words for the status bar.
public struct WriteFailure: Error, Hashable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
