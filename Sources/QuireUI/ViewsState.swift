import QuireCore

/// The saved views screen (`v`): the views of `config.toml`, one selected, Enter shows its
/// items. The first row is every item (no view), so the way back is on the same list.
public struct ViewsState: Hashable, Sendable {
    /// nil until the config has been read.
    public var list: SavedViewList?
    /// 0 is "every item"; 1… the views in the order the config writes them.
    public var selected: Int
    /// The view the list shows now, selected when the views arrive.
    public var current: String?

    public init(list: SavedViewList? = nil, selected: Int = 0, current: String? = nil) {
        self.list = list
        self.selected = selected
        self.current = current
    }

    /// Rows on screen: every item, then each view.
    public var rowCount: Int { 1 + (list?.views.count ?? 0) }

    /// The view of the selected row; nil for "every item".
    public var selectedView: SavedView? {
        guard let views = list?.views, selected > 0, selected <= views.count else { return nil }
        return views[selected - 1]
    }
}
