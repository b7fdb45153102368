/// Orders a list may be shown in instead of its own (pinned first, then newest first):
/// `quire list --sort` and the app's `O`. An asked-for order is the whole order, pins
/// included; ties go to the newer item, so every order is total and a page boundary never
/// splits equals differently from one read to the next.
public enum ItemOrder: String, CaseIterable, Hashable, Sendable {
    /// Soonest due first; items without a due date last.
    case due
    /// High, medium, low, none.
    case priority
    /// Newest first.
    case created
    /// Most recently changed first.
    case updated

    /// Whether `a` comes before `b`: what the store's ORDER BY says, in memory.
    public func precedes(_ a: Item, _ b: Item) -> Bool {
        switch self {
        case .due:
            if (a.due == nil) != (b.due == nil) { return a.due != nil }
            if let first = a.due, let second = b.due, first != second { return first < second }
        case .priority:
            if a.priority != b.priority { return a.priority > b.priority }
        case .created:
            if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
        case .updated:
            if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
        }
        return a.id > b.id
    }

    /// The next order `O` shows, nil being the list's own.
    public static func after(_ order: ItemOrder?) -> ItemOrder? {
        guard let order else { return allCases.first }
        let index = allCases.firstIndex(of: order)! + 1
        return index < allCases.count ? allCases[index] : nil
    }

    /// How the status bar names it: `by due date`.
    public var words: String {
        switch self {
        case .due: "by due date"
        case .priority: "by priority"
        case .created: "by creation"
        case .updated: "by last change"
        }
    }
}
