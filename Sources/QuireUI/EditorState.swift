import QuireCore

/// The built-in editor: a title field, a details line (tags, due date, priority: see
/// `DetailsLine`) and a body area for one item, new or existing.
public struct EditorState: Hashable, Sendable {
    /// Where typing goes, top to bottom.
    public enum Focus: Hashable, Sendable, CaseIterable {
        case title
        case details
        case body
    }

    /// The item being edited; nil for a new one.
    public var itemID: String?
    public var kind: ItemKind
    public var title: TextField
    public var details: TextField
    public var body: TextArea
    public var focus: Focus
    /// The title and body when the editor opened, to tell whether anything changed.
    public var originalTitle: String
    public var originalBody: String
    public var originalDetails: String
    /// A save is on its way to the store; keys wait until it answers.
    public var saving: Bool
    /// The item changed in the store since the editor opened it (another terminal, a sync):
    /// saving will merge with that change, and the editor says so.
    public var changedElsewhere = false
    /// Opened with `e` from the item view: saving or leaving goes back there, not to the list.
    public var returnsToItemView = false
    /// The body was made from `originalBody` (not from a kept draft): until it is edited it
    /// has not changed, which saves comparing a long note with itself on every frame.
    private var bodyIsOriginal = true

    /// An editor for a new item, with the cursor in the title.
    public init(newItemOf kind: ItemKind) {
        itemID = nil
        self.kind = kind
        title = TextField()
        details = TextField()
        body = TextArea()
        focus = .title
        originalTitle = ""
        originalBody = ""
        originalDetails = ""
        saving = false
    }

    /// An editor holding text kept from an earlier run (a draft), with the cursor in the body.
    public init(
        restoring itemID: String?, kind: ItemKind, title: String, body: String, originalTitle: String,
        originalBody: String, details: String = "", originalDetails: String = ""
    ) {
        self.itemID = itemID
        self.kind = kind
        self.title = TextField(title)
        self.details = TextField(details)
        self.body = TextArea(body)
        focus = .body
        bodyIsOriginal = false
        self.originalTitle = originalTitle
        self.originalBody = originalBody
        self.originalDetails = originalDetails
        saving = false
    }

    /// An editor for an existing item, with the cursor at the end of the title.
    public init(editing item: Item) {
        itemID = item.id
        kind = item.kind
        title = TextField(item.title)
        originalDetails = DetailsLine.text(DetailsLine.Values(of: item))
        details = TextField(originalDetails)
        body = TextArea(item.body)
        focus = .title
        originalTitle = item.title
        originalBody = item.body
        saving = false
    }

    public var isNew: Bool { itemID == nil }
    public var hasChanges: Bool {
        title.text != originalTitle || details.text != originalDetails
            || body.differs(from: originalBody, original: bodyIsOriginal)
    }

    /// What the details line shows while empty: how to write in it.
    public var detailsPlaceholder: String {
        kind == .task ? "e.g. #home due 2026-12-01 priority high" : "e.g. #home #work"
    }

    /// The editor's heading: `New note`, `Edit task`.
    public var heading: String { (isNew ? "New " : "Edit ") + kind.rawValue }

    /// Compares the item as the store holds it now with what the editor opened: any field the
    /// editor shows that moved (or the item deleted) is a change made elsewhere meanwhile.
    public mutating func compare(withStored item: Item?) {
        guard let item, item.id == itemID else { return }
        changedElsewhere =
            item.deleted || item.title != originalTitle || item.body != originalBody
            || DetailsLine.text(DetailsLine.Values(of: item)) != originalDetails
    }
}
