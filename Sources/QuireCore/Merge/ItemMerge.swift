import Foundation

/// A three-way merge of an item: this device's version and the server's, both descended from
/// the version they last agreed on, combined by SPEC's merge rules.
///
/// | field | rule |
/// | --- | --- |
/// | changed on one side only | take that side |
/// | `tags`, `attachments` | set merge: additions and removals of both sides apply |
/// | `body` | line-based three-way merge (`Diff3`); only overlapping changes conflict |
/// | other fields | conflict when both sides set different values |
/// | edit vs delete | keep the edit, and ask the person |
///
/// A conflicting field keeps its local value in `item`, so the person goes on seeing what
/// they typed until they resolve it; base, local and remote stay available for that.
/// Revisions and field values decide; clocks never do.
public struct ItemMerge: Hashable, Sendable {
    /// An edit on one side met a delete on the other.
    public enum DeleteConflict: String, Hashable, Sendable {
        /// This device deleted the item while another device edited it.
        case deletedLocally = "deleted-locally"
        /// Another device deleted the item while this device edited it.
        case deletedRemotely = "deleted-remotely"
    }

    /// How a person settles a merge that needs review. Every choice keeps the clean part of
    /// the merge (what only one side changed); it settles the conflicting fields and the
    /// question of an edit against a delete.
    public enum Resolution: String, Hashable, Sendable, CaseIterable {
        /// This device's values for the conflicting fields (a local delete stays a delete).
        case local
        /// The server's values for the conflicting fields (a remote delete stays a delete).
        case remote
        /// Everything from both: the clean merge, both sides of each conflicting body hunk
        /// (local first, lines they share once), the local value of other conflicting fields,
        /// and never a delete.
        case both
    }

    /// The base as given; nil when both sides made the item independently.
    public let base: Item?
    public let local: Item
    public let remote: Item
    /// What the device should store: the merge, with local values where fields conflict.
    public private(set) var item: Item
    /// Fields both sides set to different values (for the body: overlapping hunks), in order.
    public private(set) var conflicts: [Field]
    /// The body's three-way merge, when both sides changed the body.
    public private(set) var body: Diff3?
    public private(set) var deleteConflict: DeleteConflict?

    /// True when a person must look: a field conflict or an edit against a delete.
    public var needsReview: Bool { !conflicts.isEmpty || deleteConflict != nil }

    /// Merges `local` and `remote` against `base`. Without a base (both sides created the
    /// item independently), every field both sides set differently conflicts, tags are united.
    public init(base: Item?, local: Item, remote: Item) {
        self.base = base
        let base = base ?? ItemMerge.emptyBase(like: local)
        self.local = local
        self.remote = remote
        var merged = remote
        merged.id = local.id
        merged.updatedAt = max(local.updatedAt, remote.updatedAt)
        var conflicts: [Field] = []
        var bodyMerge: Diff3?

        for field in Field.allCases {
            let (b, l, r) = (base.value(of: field), local.value(of: field), remote.value(of: field))
            switch field {
            case .tags:
                merged.tags = ItemMerge.mergeTags(base: base.tags, local: local.tags, remote: remote.tags)
            case .attachments:
                merged.attachments = ItemMerge.mergeSet(
                    base: base.attachments, local: local.attachments, remote: remote.attachments)
            case .body:
                // `FieldValue` compares bytes: a side that only re-encoded accents changed it.
                if l == b || l == r {
                    merged.body = remote.body
                } else if r == b {
                    merged.body = local.body
                } else {
                    let diff3 = Diff3(base: base.body, local: local.body, remote: remote.body)
                    bodyMerge = diff3
                    if let text = diff3.mergedText {
                        merged.body = text
                    } else {
                        merged.body = local.body
                        conflicts.append(.body)
                    }
                }
            default:
                let takeLocal: Bool
                if l == b || l == r {
                    takeLocal = false
                } else if r == b {
                    takeLocal = true
                } else {
                    takeLocal = true
                    conflicts.append(field)
                }
                if takeLocal { merged.copy(field, from: local) }
            }
        }

        var deleteConflict: DeleteConflict?
        if local.deleted == remote.deleted {
            merged.deleted = local.deleted
        } else {
            let localFlipped = local.deleted != base.deleted
            let flipper = localFlipped ? local : remote
            let other = localFlipped ? remote : local
            let otherEdited = !other.changes(since: base).isEmpty
            if flipper.deleted && otherEdited {
                // Edit against delete: the edit survives until the person decides.
                merged.deleted = false
                deleteConflict = localFlipped ? .deletedLocally : .deletedRemotely
            } else {
                merged.deleted = flipper.deleted
            }
        }
        if local.deleted && remote.deleted {
            // Both sides deleted it: nothing left to review, and the tombstone is the server's,
            // byte for byte. What this device changed before deleting went with its delete
            // (its history keeps it); merging it into a tombstone would only make this copy
            // differ from every other. But a server tombstone that is the base itself changed
            // nothing: this device alone went on from it (brought the item back, edited it and
            // deleted it again), so its tombstone keeps this device's last version, as a field
            // changed on one side only keeps that side's value.
            merged = remote
            merged.id = local.id
            if remote.hasSameContent(as: base) {
                for field in Field.allCases { merged.copy(field, from: local) }
                merged.updatedAt = max(local.updatedAt, remote.updatedAt)
            }
            conflicts = []
            bodyMerge = nil
        }

        self.item = merged
        self.conflicts = conflicts
        self.body = bodyMerge
        self.deleteConflict = deleteConflict
    }

    /// The item as the person settled it. It carries the server's revision, so the difference
    /// to `remote` is what to push as a new change.
    public func resolved(_ resolution: Resolution) -> Item {
        var result = item
        switch resolution {
        case .local:
            for field in conflicts { result.copy(field, from: local) }
            if deleteConflict != nil { result.deleted = local.deleted }
        case .remote:
            for field in conflicts { result.copy(field, from: remote) }
            if deleteConflict != nil { result.deleted = remote.deleted }
        case .both:
            if deleteConflict != nil { result.deleted = false }
        }
        if conflicts.contains(.body), let merged = resolvedBody(choosing: { _ in resolution }) {
            result.body = merged
        }
        return result
    }

    /// The body with each conflicting hunk settled by `choose(index)` (hunks counted from 0 in
    /// text order): only the lines both sides changed follow the choice, every change one side
    /// made around them stays, and `both` gives lines the two versions share once. Nil when
    /// the body has no conflicting hunks. `quire resolve --keep` and the resolve screen both
    /// settle hunks here, so a choice means the same in either.
    public func resolvedBody(choosing choose: (Int) -> Resolution) -> String? {
        guard let body, body.hasConflicts else { return nil }
        return body.text { index, _ in
            switch choose(index) {
            case .local: .local
            case .remote: .remote
            case .both: .both
            }
        }
    }

    /// The clean merge with a body the person wrote (the diff screen's edited text, or
    /// `quire resolve --merged-file`); other conflicting fields keep the local value, and an
    /// edit against a delete keeps the item.
    public func resolved(body text: String) -> Item {
        var result = item
        result.body = text
        if deleteConflict != nil { result.deleted = false }
        return result
    }

    /// Tags as a set: a tag is in the result when the side that changed its membership has it
    /// (both sides that changed it agree, since membership has only two states).
    static func mergeTags(base: [String], local: [String], remote: [String]) -> [String] {
        let (b, l, r) = (Set(base), Set(local), Set(remote))
        return Tags.normalize(
            b.union(l).union(r).filter { tag in
                l.contains(tag) == b.contains(tag) ? r.contains(tag) : l.contains(tag)
            })
    }

    /// Attachments as a set, by the rule of tags: a reference is in the result when the side
    /// that changed its membership has it. A file renamed on one side and detached on the other
    /// is two changes of membership, and both apply.
    static func mergeSet(base: [AttachedFile], local: [AttachedFile], remote: [AttachedFile]) -> [AttachedFile] {
        let (b, l, r) = (Set(base), Set(local), Set(remote))
        return Attachments.normalize(
            b.union(l).union(r).filter { file in
                l.contains(file) == b.contains(file) ? r.contains(file) : l.contains(file)
            })
    }

    /// A base for items both sides made independently: no field set.
    private static func emptyBase(like item: Item) -> Item {
        Item(id: item.id, kind: .note, title: "", createdAt: item.createdAt, rev: 0)
    }
}

extension Item {
    /// Copies one editable field (and `doneAt` with `done`) from another version.
    public mutating func copy(_ field: Field, from other: Item) {
        switch field {
        case .kind: kind = other.kind
        case .title: title = other.title
        case .body: body = other.body
        case .tags: tags = other.tags
        case .done:
            done = other.done
            doneAt = other.doneAt
        case .due: due = other.due
        case .priority: priority = other.priority
        case .pinned: pinned = other.pinned
        case .project: project = other.project
        case .recur: recur = other.recur
        case .wait: wait = other.wait
        case .scheduled: scheduled = other.scheduled
        case .attachments: attachments = other.attachments
        }
    }
}
