import QuireCore

/// Saved views (`v`): a list of named filters from `config.toml` to switch between.
extension AppState {
    public var views: ViewsState? {
        if case .views(let views) = screen { return views }
        return nil
    }

    /// Opens the screen at once and asks for the views as the config holds them now.
    mutating func openViews() -> [Effect] {
        screen = .views(ViewsState(current: list.query.viewName))
        return [.loadSavedViews]
    }

    mutating func showViews(_ loaded: SavedViewList) -> [Effect] {
        guard var views else { return [] }
        views.list = loaded
        views.selected =
            views.current.flatMap { name in loaded.views.firstIndex { $0.name == name } }.map { $0 + 1 } ?? 0
        screen = .views(views)
        return []
    }

    mutating func viewsCommand(_ command: Command) -> [Effect] {
        guard var views else { return [] }
        if let moved = AppState.selection(after: command, from: views.selected, last: views.rowCount - 1) {
            views.selected = moved
            screen = .views(views)
            return []
        }
        switch command {
        case .open:
            guard views.list?.problem == nil else { return [] }
            return choose(views.selectedView)
        case .back:
            screen = .list
            return []
        case .quit:
            return quit()
        default:
            break
        }
        screen = .views(views)
        return []
    }

    /// Shows the list through `view` (nil: every item), leaving the other filters to it: a
    /// view is the whole filter, as if typed at `/`.
    private mutating func choose(_ view: SavedView?) -> [Effect] {
        var query = ListQuery()
        if let view {
            do {
                try query.show(view, calendar: filterCalendar)
            } catch {
                notice = .error("The view “\(view.name)” does not read: \(error.description)")
                return []
            }
        }
        screen = .list
        return query == list.query ? [] : setQuery(query, keepSelection: false)
    }
}
