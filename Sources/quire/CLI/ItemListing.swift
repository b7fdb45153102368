import Foundation
import QuireCore
import QuireStore

#if canImport(Glibc)
    import Glibc
#endif

/// The human listing of `quire list` and `quire search`: one aligned line per item.
///
/// ```
/// 3fa9  ●   [ ] Buy milk      2026-11-30 high home #errands
/// c07e1   ↑     Meeting notes                  work.q4 #minutes
/// ```
/// Columns: the item's short id (see `ShortID`), the sync badge (`●` pending, `↻` syncing, `!` needs
/// review, `✗` error, `◌` on this device only, blank when synced), `↑` for pinned, the checkbox of tasks, the title, the
/// due date, the priority, then the project and the tags. Titles are cut to fit a terminal, never in a pipe.
///
/// In colour (a terminal, no `NO_COLOR`): an open task's due date red when it is past and
/// yellow when it is today, high priority red, medium yellow, low dim, done and deleted items
/// dim. A done task is never overdue.
struct ItemListing {
    let terminal: Terminal
    /// The local date due dates are read against.
    var today: Day? = LocalTime.today()

    func write(_ items: [Item], shortIDs: [String: String], to out: inout Output) {
        guard !items.isEmpty else { return }
        let idWidth = items.map { shortIDs[$0.id]?.count ?? 8 }.max() ?? 8
        let hasTasks = items.contains { $0.kind == .task }
        let dueWidth = items.contains { $0.due != nil } ? 10 : 0
        let priorityWidth = items.map { $0.priority == .none ? 0 : $0.priority.rawValue.count }.max() ?? 0
        // The project leads the last column, as Taskwarrior's list shows it beside the tags.
        let tagTexts = items.map { item in
            ((item.project.map { [$0] } ?? []) + item.tags.map(DetailsLine.tagWord)).joined(separator: " ")
        }
        let titles = items.map { title(of: $0) }
        let titleWidths = titles.map(Terminal.width)
        var titleWidth = min(titleWidths.max() ?? 0, 60)
        if let columns = Terminal.columns() {
            let fixed =
                idWidth + 1 + 2 + 2 + (hasTasks ? 4 : 0) + (dueWidth > 0 ? dueWidth + 2 : 0)
                + (priorityWidth > 0 ? priorityWidth + 2 : 0) + min(tagTexts.map(Terminal.width).max() ?? 0, 24)
            titleWidth = max(12, min(titleWidth, columns - fixed))
        }
        for (index, item) in items.enumerated() {
            var parts: [String] = []
            let id = shortIDs[item.id] ?? String(item.id.prefix(8))
            parts.append(terminal.paint(Terminal.pad(id, to: idWidth), .id))
            parts.append(
                terminal.paint(SyncBadge.isLocalOnly(item) ? SyncBadge.localOnlyMark : badge(item.syncState), .badge))
            parts.append(item.pinned ? "↑" : " ")
            if hasTasks { parts.append(item.kind == .task ? (item.done ? "[x]" : "[ ]") : "   ") }
            var text = titles[index]
            var textWidth = titleWidths[index]
            if textWidth > titleWidth {
                text = Terminal.truncate(text, to: titleWidth)
                textWidth = Terminal.width(text)
            }
            let padded = text + String(repeating: " ", count: max(0, titleWidth - textWidth))
            parts.append(item.deleted || item.done ? terminal.paint(padded, .dim) : padded)
            if dueWidth > 0 {
                let due = Terminal.pad(item.due?.description ?? "", to: dueWidth)
                parts.append(dueRole(item).map { terminal.paint(due, $0) } ?? due)
            }
            if priorityWidth > 0 {
                let name = item.priority == .none ? "" : item.priority.rawValue
                let role: Terminal.Role =
                    switch item.priority {
                    case .high: .high
                    case .medium: .medium
                    default: .dim
                    }
                parts.append(terminal.paint(name, role) + String(repeating: " ", count: priorityWidth - name.count))
            }
            parts.append(terminal.paint(tagTexts[index], .tag))
            var line = parts.joined(separator: " ")
            while line.hasSuffix(" ") { line.removeLast() }
            out.line(line)
        }
    }

    /// Red for an open task past its due date, yellow for one due today; nothing for the rest.
    func dueRole(_ item: Item) -> Terminal.Role? {
        guard let due = item.due, let today, item.kind == .task, !item.done, !item.deleted else { return nil }
        if due < today { return .high }
        return due == today ? .medium : nil
    }

    private func title(of item: Item) -> String {
        item.deleted ? item.title + " (deleted)" : item.title
    }

    func badge(_ state: SyncState) -> String {
        switch state {
        case .synced: " "
        case .pending: "●"
        case .syncing: "↻"
        case .needsReview: "!"
        case .error: "✗"
        }
    }
}

/// How a command that lists items prints them: one JSON array with `--json`; on a terminal a
/// word when there are none (silence in a pipe); else the listing with short ids.
enum ItemsOutput {
    static func write(
        _ items: [Item], json: Bool, whenEmpty: String, shortIDs: [String: String]? = nil, store: AppDatabase,
        to out: inout Output
    ) throws {
        if json {
            JSONOutput.items(&out) { emit in items.forEach(emit) }
        } else if items.isEmpty {
            if Terminal.isOutputTerminal { out.line(whenEmpty) }
        } else {
            let ids = try shortIDs ?? store.shortIDs(for: items)
            ItemListing(terminal: Terminal()).write(items, shortIDs: ids, to: &out)
        }
    }
}

/// Local times for people: `2026-11-22 14:05`.
enum LocalTime {
    /// Today's date where the person is (`TZ` or the system's zone), read with the C library so
    /// that a listing does not start Foundation's calendar for it.
    static func today() -> Day? {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return nil }
        return Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// Today and where each local day starts, for dates in filters (`created:today`).
    static func filterCalendar() -> FilterCalendar {
        guard let today = today() else {
            return .utc(today: Day(ordinal: Int(time(nil) / 86_400)) ?? Day(year: 1970, month: 1, day: 1)!)
        }
        return FilterCalendar(today: today) { day in
            var parts = tm()
            parts.tm_year = Int32(day.year - 1900)
            parts.tm_mon = Int32(day.month - 1)
            parts.tm_mday = Int32(day.day)
            // Midnight, whether or not summer time is in force that day.
            parts.tm_isdst = -1
            return Date(timeIntervalSince1970: TimeInterval(mktime(&parts)))
        }
    }

    static func string(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
