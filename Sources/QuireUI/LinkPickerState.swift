import QuireCore

/// One line of the link picker: a link of the item's text, or an item whose text links to it.
public struct LinkEntry: Hashable, Sendable {
    public enum Direction: Hashable, Sendable {
        /// A `[[…]]` of the item's own text.
        case to
        /// An item that links to this one (a backlink).
        case from
    }

    public var direction: Direction
    /// The link as written (`to`); the linking item's title (`from`).
    public var text: String
    /// The item reached (perhaps deleted); nil for a link that reaches none.
    public var target: Item?

    public init(direction: Direction, text: String, target: Item?) {
        self.direction = direction
        self.text = text
        self.target = target
    }

    /// Why the entry leads nowhere to read; nil when it reaches a live item.
    public var reach: LinkReach? {
        guard let target else { return .missing }
        return target.deleted ? .deleted : nil
    }
}

/// The link picker (`L` in the item view): the item's links, then the items that link to it;
/// Enter follows one, Backspace in the item view comes back.
public struct LinkPickerState: Hashable, Sendable {
    public var itemID: String
    public var title: String
    /// Nil until the store answers.
    public var entries: [LinkEntry]?
    public var selected = 0

    public init(itemID: String, title: String) {
        self.itemID = itemID
        self.title = title
    }
}

/// Why a `[[link]]` of a text leads nowhere to read: the rendered text marks it so.
public enum LinkReach: Hashable, Sendable {
    /// No item has that title or id.
    case missing
    /// The item it reaches is in the trash.
    case deleted

    /// The mark shown after the link.
    public var mark: String {
        switch self {
        case .missing: "(missing)"
        case .deleted: "(deleted)"
        }
    }
}

/// How the rendered text draws one of its `[[links]]` when not simply as written.
public enum LinkLook: Hashable, Sendable {
    /// As written, followed by the mark of why it leads nowhere to read.
    case marked(LinkReach)
    /// A link written by the item's full id (a short id typed is saved so): shown as
    /// `[[its title]]`, which is what a person reads, marked when the item is deleted; `m`
    /// shows the id.
    case titled(String, LinkReach?)
}

/// The links of the item in the item view, read as the picker reads them (`Effect.loadLinks`):
/// one read serves the marks on links that lead nowhere, the "Linked from" section and `L`.
public struct ItemLinks: Hashable, Sendable {
    public var itemID: String
    public var entries: [LinkEntry]

    public init(itemID: String, entries: [LinkEntry]) {
        self.itemID = itemID
        self.entries = entries
    }

    /// How the item's own links are drawn, by key (`WikiLink.key`): those that reach no item or
    /// a deleted one are marked; those written by id show the title of the item they reach.
    /// Other links are drawn as written.
    public var linkLooks: [String: LinkLook] {
        var looks: [String: LinkLook] = [:]
        for entry in entries where entry.direction == .to {
            if let target = entry.target, WikiLink(text: entry.text).isID {
                looks[WikiLink.key(entry.text)] = .titled(target.title, entry.reach)
            } else if let mark = entry.reach {
                looks[WikiLink.key(entry.text)] = .marked(mark)
            }
        }
        return looks
    }

    /// The items that link to this one.
    public var backlinks: [LinkEntry] { entries.filter { $0.direction == .from } }
}
