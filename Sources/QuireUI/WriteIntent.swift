import Foundation
import QuireCore

/// A write the person asked for, as the update function describes it; the runtime performs it
/// and hands it back with the outcome, so the update knows what succeeded.
public enum WriteIntent: Hashable, Sendable {
    case create(kind: ItemKind, title: String, body: String, details: DetailsLine.Values = DetailsLine.Values())
    case edit(id: String, before: [Field: FieldValue], after: [Field: FieldValue])
    case setDone(id: String, title: String, done: Bool)
    case setPinned(id: String, title: String, pinned: Bool)
    case delete(id: String, title: String)
    /// Brings a deleted item back from the trash.
    case restore(id: String, title: String)
    /// Makes an earlier version (recorded at `recordedAt`) the item's content again.
    case restoreVersion(id: String, title: String, fields: [Field: FieldValue], recordedAt: Date)
}

/// Why a write failed, in words for the status bar.
public struct WriteFailure: Error, Hashable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
