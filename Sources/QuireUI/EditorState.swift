import QuireCore

/// The built-in editor: a title field and a body area for one item, new or existing.
public struct EditorState: Hashable, Sendable {
    public enum Focus: Hashable, Sendable {
        case title
        case body
    }

    /// The item being edited; nil for a new one.
    public var itemID: String?
    public var kind: ItemKind
    public var title: TextField
    public var body: TextArea
    public var focus: Focus
    /// The title and body when the editor opened, to tell whether anything changed.
    public var originalTitle: String
    public var originalBody: String
    /// A save is on its way to the store; keys wait until it answers.
    public var saving: Bool

    /// An editor for a new item, with the cursor in the title.
    public init(newItemOf kind: ItemKind) {
        itemID = nil
        self.kind = kind
        title = TextField()
        body = TextArea()
        focus = .title
        originalTitle = ""
        originalBody = ""
        saving = false
    }

    /// An editor holding text kept from an earlier run (a draft), with the cursor in the body.
    public init(
        restoring itemID: String?, kind: ItemKind, title: String, body: String, originalTitle: String,
        originalBody: String
    ) {
        self.itemID = itemID
        self.kind = kind
        self.title = TextField(title)
        self.body = TextArea(body)
        focus = .body
        self.originalTitle = originalTitle
        self.originalBody = originalBody
        saving = false
    }

    /// An editor for an existing item, with the cursor at the end of the title.
    public init(editing item: Item) {
        itemID = item.id
        kind = item.kind
        title = TextField(item.title)
        body = TextArea(item.body)
        focus = .title
        originalTitle = item.title
        originalBody = item.body
        saving = false
    }

    public var isNew: Bool { itemID == nil }
    public var hasChanges: Bool { title.text != originalTitle || body.differs(from: originalBody) }

    /// The editor's heading: `New note`, `Edit task`.
    public var heading: String { (isNew ? "New " : "Edit ") + kind.rawValue }
}
