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
