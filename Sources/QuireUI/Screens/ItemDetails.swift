import QuireCore
import TerminalUI

/// The lines that describe one item in full, shared by the preview pane and the item view.
public enum ItemDetails {
    public static func lines(_ item: Item, today: Day?) -> [Line] {
        var lines: [Line] = []
        var heading = Line([])
        if item.kind == .task { heading.append(item.done ? Span("[x] ", .done) : Span("[ ] ")) }
        heading.append(Span(item.title, style: Style(item.done ? .done : .title, bold: true)))
        lines.append(heading)

        var facts = Line([Span(item.kind.rawValue, .muted)])
        if item.pinned { facts.spans += [Span(" · ", .muted), Span("★ pinned", .pinned)] }
        for tag in item.tags { facts.append(Span(" #" + tag, .tag)) }
        lines.append(facts)

        if item.kind == .task && (item.due != nil || item.priority != .none || item.done) {
            var task = Line([])
            if let due = item.due {
                task.spans += [Span("due ", .muted), ItemRow.due(due, today: today, compact: false)]
            }
            if let priority = ItemRow.priority(item.priority) {
                if !task.spans.isEmpty { task.append(Span(" · ", .muted)) }
                task.spans += [Span("priority ", .muted), priority]
            }
            if item.done, let doneAt = item.doneAt {
                if !task.spans.isEmpty { task.append(Span(" · ", .muted)) }
                task.append(Span("done " + String(Timestamp.string(from: doneAt).prefix(10)), .muted))
            }
            lines.append(task)
        }

        var state = Line([])
        let badge = ItemRow.badge(item.syncState)
        if item.syncState != .synced { state.spans += [badge, Span(" ")] }
        state.append(Span(item.syncState.rawValue, .muted))
        state.append(Span(" · " + String(Timestamp.string(from: item.createdAt).prefix(10)), .muted))
        state.append(Span(" · " + String(item.id.prefix(8)), .muted))
        lines.append(state)
        lines.append(Line([]))
        if item.body.isEmpty {
            lines.append(Line("(no text)", style: Style(.muted)))
        } else {
            lines += item.body.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0)) }
        }
        return lines
    }
}
