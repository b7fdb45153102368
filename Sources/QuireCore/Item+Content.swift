/// What sync asks of an item's values, in one place: whether two versions hold the same
/// content, the fields a create carries, and whether a version holds what an op sets.
extension Item {
    /// True when both hold the same value in every field (times, revision, version and the
    /// deleted flag aside).
    public func hasSameFields(as other: Item) -> Bool {
        Field.allCases.allSatisfy { value(of: $0) == other.value(of: $0) }
    }

    /// True when both hold the same values and both are live or both deleted.
    public func hasSameContent(as other: Item) -> Bool {
        deleted == other.deleted && hasSameFields(as: other)
    }

    /// A create op's fields: every field, each from null.
    public var creationFields: [Field: FieldChange] {
        Dictionary(uniqueKeysWithValues: Field.allCases.map { ($0, FieldChange(from: .null, to: value(of: $0))) })
    }

    /// The fields of the create that brings this tombstone back (`quire restore`): every field,
    /// each from the value the tombstone holds. Edits made before it is sent fold into it, so
    /// the `from` values are what still tells the version it revived (the merge base of its
    /// changes); the server sets the `to` values on its tombstone whatever they came from.
    public var revivalFields: [Field: FieldChange] { revivalFields(from: self) }

    /// The fields of the create that brings `tombstone` back as this version: every field,
    /// each from the value the tombstone holds to this version's. A revival a merge or a
    /// resolution makes rests on the tombstone as one `quire restore` makes does, so when the
    /// server answers it with another copy, the tombstone is the base it is merged over.
    public func revivalFields(from tombstone: Item) -> [Field: FieldChange] {
        Dictionary(
            uniqueKeysWithValues: Field.allCases.map {
                ($0, FieldChange(from: tombstone.value(of: $0), to: value(of: $0)))
            })
    }

    /// True when this version has every value `op` sets: for a delete, when it is deleted.
    public func holds(_ op: Op) -> Bool {
        switch op.kind {
        case .delete: return deleted
        case .create, .update:
            guard !deleted else { return false }
            return (op.fields ?? [:]).allSatisfy { field, change in
                if field == .tags, case .strings(let list) = change.to { return Tags.normalize(list) == tags }
                if field == .attachments, case .strings(let list) = change.to {
                    return (try? Attachments.parse(list)) == attachments
                }
                return value(of: field) == change.to
            }
        }
    }
}
