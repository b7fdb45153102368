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

    /// The agenda (`A`): a view of its own, open tasks overdue or due within the week, the
    /// soonest first (SPEC: TUI, "an agenda view"); `quire agenda` lists the same days.
    static let agendaView = SavedView(name: "agenda", filter: "kind:task status:open due.before:+8d")

    mutating func showAgenda() -> [Effect] {
        var query = ListQuery(order: .due)
        do {
            try query.show(AppState.agendaView, calendar: filterCalendar)
        } catch {
            notice = .error("The agenda does not read: \(error.description)")
            return []
        }
        return query == list.query ? [] : setQuery(query, keepSelection: false)
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
