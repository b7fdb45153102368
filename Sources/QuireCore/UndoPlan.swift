/// How to take back one local action, decided from the version the action wrote, the version
/// before it and the item as it is now.
///
/// Undo is read from the item's history rather than from a stack in memory, so it survives a
/// restart and covers what the CLI did as well as the app. Taking an action back is itself an
/// ordinary local change that syncs; it touches only the fields the action changed, so what
/// another device changed since in other fields stays.
public enum UndoPlan: Hashable, Sendable {
    /// Put these values back: the fields the action changed, as they were before it.
    case revert([Field: FieldValue])
    /// The action deleted the item: bring it back.
    case undelete
    /// The action created the item: delete it.
    case remove
    /// The action brought the item back from the trash: put it back there.
    case deleteAgain
    /// Nothing can be taken back; the words say why ("it was deleted since").
    case cannot(String)

    /// Whether taking back writes a change (everything but `.cannot`).
    public var wroteAChange: Bool {
        if case .cannot = self { false } else { true }
    }

    /// - Parameters:
    ///   - action: the version the action recorded.
    ///   - before: the version recorded just before it; nil when the action created the item.
    ///   - current: the item as the store holds it now.
    public static func taking(back action: Item, before: Item?, current: Item) -> UndoPlan {
        guard let before else {
            return current.deleted ? .cannot("it is deleted already") : .remove
        }
        switch (before.deleted, action.deleted) {
        case (false, true):
            return current.deleted ? .undelete : .cannot("it was brought back since")
        case (true, false):
            return current.deleted ? .cannot("it is deleted already") : .deleteAgain
        case (true, true):
            return .cannot("it was deleted")
        case (false, false):
            if current.deleted { return .cannot("it was deleted since") }
            var fields: [Field: FieldValue] = [:]
            for field in Field.allCases where action.value(of: field) != before.value(of: field) {
                // A field the action changed and that already holds its old value again needs nothing.
                if current.value(of: field) != before.value(of: field) { fields[field] = before.value(of: field) }
            }
            return fields.isEmpty ? .cannot("it holds those values already") : .revert(fields)
        }
    }
}

/// One action taken back (or found impossible to take back), for the status bar.
public struct UndoneAction: Hashable, Sendable {
    public var itemID: String
    /// The item's title once the undo is written.
    public var title: String
    public var plan: UndoPlan
    /// How taking a change back met what changed since (`.saved` when nothing had).
    public var met: SavedWrite.Outcome

    public init(itemID: String, title: String, plan: UndoPlan, met: SavedWrite.Outcome = .saved) {
        self.itemID = itemID
        self.title = title
        self.plan = plan
        self.met = met
    }

    /// What the status bar says.
    public var text: String {
        switch plan {
        case .revert where met == .merged:
            "Undone: change to “\(title)”, merged with what changed since"
        case .revert where met == .needsReview:
            "Undoing the change to “\(title)” met a change made since in the same place: both kept, it needs review"
        case .revert: "Undone: change to “\(title)”"
        case .undelete: "Undone: delete of “\(title)”"
        case .remove: "Undone: creation of “\(title)” (it is in the trash)"
        case .deleteAgain: "Undone: restore of “\(title)” (it is back in the trash)"
        case .cannot(let why): "Cannot undo the last change to “\(title)”: \(why); u goes on to the one before"
        }
    }
}
