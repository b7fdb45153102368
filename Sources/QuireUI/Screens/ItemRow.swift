import QuireCore
import TerminalUI

/// How one item looks as a list row: badge, checkbox, pin, title, project, tags, then due date and
/// priority at the right edge.
public enum ItemRow {
    /// The badge for a sync state (SPEC: `●` pending, `↻` syncing, `!` needs review, `✗` error,
    /// nothing when synced).
    /// An item's badge: its sync state's, or `◌` for an item on this device only.
    public static func badge(of item: Item) -> Span {
        SyncBadge.isLocalOnly(item) ? Span(SyncBadge.localOnlyMark, .muted) : badge(item.syncState)
    }

    public static func badge(_ state: SyncState) -> Span {
        switch state {
        case .synced: Span(" ")
        case .pending: Span("●", .badgePending)
        case .syncing: Span("↻", .badgeSyncing)
        case .needsReview: Span("!", .badgeReview)
        case .error: Span("✗", .badgeError)
        }
    }

    /// The paperclip before the title of an item with files attached.
    public static let attachmentMark = "📎"

    public static func checkbox(_ item: Item) -> Span {
        guard item.kind == .task else { return Span("    ") }
        return item.done ? Span("[x] ", .done) : Span("[ ] ")
    }

    /// Before the title of a recurring task, as `★` before a pinned item's: a glyph, which keeps
    /// its meaning in monochrome. Anticlockwise, unlike the syncing badge `↻` in the first column.
    public static let recurrenceMark = Span("↺ ", .due)

    /// A due date in few cells: `11-30` within the current year on narrow lists, else in full.
    /// Past and not `done`: overdue. A done task's date is only a date.
    public static func due(_ day: Day, today: Day?, compact: Bool, done: Bool = false) -> Span {
        let overdue = !done && (today.map { day < $0 } ?? false)
        let text: String
        if compact, let today, today.year == day.year {
            text = String(day.description.dropFirst(5))
        } else {
            text = day.description
        }
        return Span(text, overdue ? .overdue : .due)
    }

    public static func priority(_ priority: Priority) -> Span? {
        switch priority {
        case .none: nil
        case .low: Span("low", .priorityLow)
        case .medium: Span("med", .priorityMedium)
        case .high: Span("high", .priorityHigh)
        }
    }

    /// The row for an item in exactly `width` cells.
    public static func line(_ item: Item, width: Int, today: Day?) -> Line {
        var meta = Line([])
        if item.kind == .task {
            if let day = item.due {
                meta.append(ItemRow.due(day, today: today, compact: width < 70, done: item.done))
            }
            if let level = ItemRow.priority(item.priority) {
                if !meta.spans.isEmpty { meta.append(Span(" ")) }
                meta.append(level)
            }
        }
        var left = Line([badge(of: item), Span(" "), checkbox(item)])
        if item.pinned { left.append(Span("★ ", .pinned)) }
        if item.recur != nil { left.append(recurrenceMark) }
        if !item.attachments.isEmpty { left.append(Span(attachmentMark + " ", .muted)) }
        left.append(Span(item.title, item.done ? .done : .normal))
        if let project = item.project { left.append(Span(" " + project, .muted)) }
        for tag in item.tags { left.append(Span(" " + DetailsLine.tagWord(tag), .tag)) }
        let metaRoom = meta.width == 0 ? 0 : meta.width + 1
        if metaRoom > 0, width - metaRoom < 16 {
            // Too narrow for both: the title matters more than the dates.
            return left.padded(toWidth: width)
        }
        var row = left.padded(toWidth: width - metaRoom)
        if metaRoom > 0 {
            row.append(Span(" "))
            row.spans += meta.spans
        }
        return row
    }
}
