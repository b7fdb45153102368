import QuireCore

/// Where a read of every match starts: the list's order index, or the index of one term that
/// every match must pass ("v21 filter indexes").
///
/// SQLite has no statistics on a store (nothing runs ANALYZE), and without them it keeps
/// walking `item_by_order`, every live row, so as not to sort, even with the new indexes there:
/// 390 ms at a million items for `+garden project:p due.before:eow`, which keeps 12k of them,
/// against 180 ms from the project's index. Statistics would not settle it either: they give a
/// tag's average count, not this tag's (ANALYZE with a row limit, cheap enough to run, gave
/// worse ones still), and with them the planner read all million rows of a tag every item
/// carries to show a page of 50 (2.1 s, against 1 ms down the order index). So the store
/// picks: a read that wants every match (`quire list`, `--json`, a count) starts from a term's
/// index and sorts what it keeps; a read of a page walks the order index and stops once it is
/// full, as before.
extension ItemFilter {
    enum Start: Equatable {
        /// `item_by_order` or `item_by_open_order`, as the planner picks: the list's own order.
        case order
        /// `item_by_project_and_due`: the project's range, with its due dates and deletion
        /// decided in the index, so only matching rows are read (the first choice: whatever
        /// the project's size, what it costs beyond the matches is index entries, not rows).
        case project
        /// The rows of a `+tag` (`itemTag`), each read once.
        case tag
        /// `item_by_due`: a due range, deletion decided in the index.
        case due
    }

    /// The start for a read of every match when `readsEveryMatch`, else `.order`. A free word or
    /// `links:` term reads its own index already (the search index, `itemLink`): the planner
    /// keeps its choice then.
    func start(readsEveryMatch: Bool) -> Start {
        guard readsEveryMatch else { return .order }
        let terms = FilterSQL.requiredTerms(expression)
        var start = Start.order
        for term in terms {
            switch term {
            case .word, .links: return .order
            case .project(.some): start = .project
            case .tag(_, present: true) where start != .project: start = .tag
            case .due(.some(let range)) where start == .order && (range.first != nil || range.last != nil):
                start = .due
            default: break
            }
        }
        return start
    }

    /// The FROM clause for `start`, aliased `item`: the index named, so the planner cannot
    /// fall back to walking the order index (an index it could not use would be an error, so
    /// `start` names one only for a term that every match passes).
    static func source(_ start: Start) -> String {
        switch start {
        case .order: "item"
        case .project: "item INDEXED BY item_by_project_and_due"
        // The tag's rows are looked up by row number (`FilterSQL.condition(tagsAsRows:)`).
        case .tag: "item NOT INDEXED"
        case .due: "item INDEXED BY item_by_due"
        }
    }
}
