import Foundation

/// A write that started from a version of an item, settled against the item as it is now.
///
/// An editor (the app's, `$EDITOR`, `quire edit`), a restored version, an undo: each began from
/// values it read, and the item may have moved since (another terminal, another device). Saving
/// its values as they are would overwrite whatever changed meanwhile without a word. So every
/// such write names the values it started from (`before`) and the values it sets (`after`),
/// field by field, and is settled here by the merge sync uses (`ItemMerge`): the base is the
/// item with `before`, the writer's version the item with `after`, the other side the item now.
/// Fields the writer did not touch are the item's own in all three, so they simply stay.
public enum WriteMerge {
    /// How a write meets the item.
    public enum Outcome: Hashable, Sendable {
        /// Nothing the writer started from moved: set these values as they are.
        case write([Field: FieldValue])
        /// Something moved and merged cleanly: set these values (the merge's) instead, and say so.
        case merged([Field: FieldValue])
        /// Something moved and both changed the same thing: nothing may be lost, a person decides.
        case conflict(ItemMerge)
    }

    /// Settles a write of `after`, made from `before`, against `current`.
    ///
    /// A field in `after` but not in `before` counts as read from the item now (the writer
    /// did not say what it saw, so nothing can have moved under it). Every writer starts from a
    /// live item, so an item deleted meanwhile is an edit against a delete: the edit is kept
    /// and a person decides (SPEC's merge rules).
    public static func settle(
        _ after: [Field: FieldValue], startedFrom before: [Field: FieldValue], current: Item, now: Date
    ) throws(ValidationError) -> Outcome {
        let moved = current.deleted || before.contains { field, value in current.value(of: field) != value }
        guard moved else { return .write(after) }
        var base = try current.applying(before, now: now)
        base.deleted = false
        let mine = try base.applying(after, now: now)
        let merge = ItemMerge(base: base, local: mine, remote: current)
        if merge.needsReview { return .conflict(merge) }
        return .merged(merge.item.changes(since: current).mapValues(\.to))
    }
}

extension WriteMerge {
    /// A version made from `seen` (a resolution the person built from the versions on screen),
    /// carried onto `now`, what `seen` has become since: the changes made meanwhile merge in.
    /// Nil when they clash with it (the person must look again).
    public static func carry(_ made: Item, madeFrom seen: Item, onto now: Item) -> Item? {
        guard !seen.hasSameContent(as: now) else { return made }
        let merge = ItemMerge(base: seen, local: made, remote: now)
        return merge.needsReview ? nil : merge.item
    }
}

/// What a save that started from a version of an item did.
public struct SavedWrite: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        /// The values were there already: nothing was written.
        case unchanged
        /// Nothing had moved since the writer began: its values were written as they were.
        case saved
        /// The item had moved and the two merged cleanly: the merge was written.
        case merged
        /// The item had moved and both changed the same thing: both were kept (the row holds
        /// the clean merge and both sides of each conflicting body hunk) and the item needs review.
        case needsReview
    }

    public var item: Item
    public var outcome: Outcome

    public init(item: Item, outcome: Outcome) {
        self.item = item
        self.outcome = outcome
    }
}
