/// Which items a list keeps by their checkbox: the one rule for the TUI's `o` filter and the
/// store's `--open`/`--done` listings, so an in-memory list and SQLite never disagree.
///
/// SPEC gives `done` to tasks only, so a note has no status: `open` and `done` are tasks
/// alone, and `any` (every live item, done tasks included) is the default of both `quire list`
/// and the app's list.
public enum StatusFilter: String, Hashable, Sendable, CaseIterable {
    case any
    case open
    case done

    /// The next filter in the `o` cycle: any, open, done, any.
    public var next: StatusFilter {
        switch self {
        case .any: .open
        case .open: .done
        case .done: .any
        }
    }

    /// Whether the item's checkbox puts it in this list (notes have none).
    public func admits(_ item: Item) -> Bool {
        switch self {
        case .any: true
        case .open: item.kind == .task && !item.done
        case .done: item.done
        }
    }
}
