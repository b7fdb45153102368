import QuireCore
import TerminalUI

/// The lines that describe one item in full, shared by the preview pane and the item view.
public enum ItemDetails {
    /// `shownID` is the id a person types for the item (see `ShortID`).
    /// `fitting` (rows, columns) keeps only the start of the body that can show in that many
    /// rows: a pane redrawn on every key must not split and wrap a megabyte it cannot show.
    /// `syncState` false leaves out the badge, state and id line (a version in the history view
    /// is not the item as it stands). `markdown` shows the body rendered (see `MarkdownCache`),
    /// as rows already wrapped to `fitting`'s width; without `fitting` the body stays raw.
    /// `links` (the item view's, once read) marks the body's links that lead nowhere and ends
    /// the text with the items that link to this one, once the whole body fits in `fitting`.
    /// `files` (the item view's) adds where each attached file stands and marks the selected one.
    public static func lines(
        _ item: Item, today: Day?, shownID: String, fitting: Size? = nil, syncState: Bool = true,
        markdown: Bool = false, links: ItemLinks? = nil, files: FileListing? = nil
    ) -> [Line] {
        var lines: [Line] = []
        var heading = Line([])
        if item.kind == .task { heading.append(item.done ? Span("[x] ", .done) : Span("[ ] ")) }
        heading.append(Span(item.title, style: Style(item.done ? .done : .title, bold: true)))
        lines.append(heading)

        var facts = Line([Span(item.kind.rawValue, .muted)])
        if let project = item.project { facts.spans += [Span(" · ", .muted), Span(project, .tag)] }
        if let recur = item.recur { facts.spans += [Span(" · ", .muted), Span("recur \(recur)", .muted)] }
        if let wait = item.wait { facts.spans += [Span(" · ", .muted), Span("wait \(wait)", .muted)] }
        if let scheduled = item.scheduled {
            facts.spans += [Span(" · ", .muted), Span("scheduled \(scheduled)", .muted)]
        }
        if item.pinned { facts.spans += [Span(" · ", .muted), Span("★ pinned", .pinned)] }
        for tag in item.tags { facts.append(Span(" " + DetailsLine.tagWord(tag), .tag)) }
        if item.deleted {
            facts.spans += [Span(" · ", .muted), Span(syncState ? "deleted, in the trash" : "deleted", .badgeError)]
        }
        lines.append(facts)

        if item.kind == .task && (item.due != nil || item.priority != .none || item.done) {
            var task = Line([])
            if let due = item.due {
                task.spans += [Span("due ", .muted), ItemRow.due(due, today: today, compact: false, done: item.done)]
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

        // The files attached, one line each: name and size, and in the item view where each
        // stands in its upload or download.
        for (index, file) in item.attachments.enumerated() {
            lines.append(FileListing.line(file, index: index, of: item.attachments.count, listing: files))
        }

        if syncState {
            var state = Line([])
            let localOnly = SyncBadge.isLocalOnly(item)
            if item.syncState != .synced || localOnly { state.spans += [ItemRow.badge(of: item), Span(" ")] }
            state.append(Span(localOnly ? "local only" : item.syncState.rawValue, .muted))
            state.append(Span(" · " + String(Timestamp.string(from: item.createdAt).prefix(10)), .muted))
            state.append(Span(" · " + shownID, .muted))
            lines.append(state)
        }
        lines.append(Line([]))
        let links = links?.itemID == item.id ? links : nil
        guard body(item, fitting: fitting, markdown: markdown, linkLooks: links?.linkLooks ?? [:], into: &lines)
        else { return lines }
        if let backlinks = links?.backlinks, !backlinks.isEmpty {
            lines.append(Line([]))
            lines.append(Line([Span("Linked from", style: Style(.title, bold: true)), Span(" · L follows", .muted)]))
            for entry in backlinks { lines.append(Line([Span("← ", .accent), Span(entry.text, .link)])) }
        }
        return lines
    }

    /// Adds the body's lines (all of them, or those `fitting` can show); whether they are all.
    private static func body(
        _ item: Item, fitting: Size?, markdown: Bool, linkLooks: [String: LinkLook], into lines: inout [Line]
    ) -> Bool {
        if item.body.isEmpty {
            lines.append(Line("(no text)", style: Style(.muted)))
            return true
        }
        if markdown, let fitting {
            let rendered = MarkdownCache.shared.rendered(
                item.body, width: fitting.width, rows: fitting.height, linkLooks: linkLooks)
            let height = max(1, fitting.height)
            lines += rendered.lines.prefix(height)
            return rendered.complete && rendered.lines.count <= height
        }
        guard let fitting else {
            lines += item.body.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0)) }
            return true
        }
        // Each line takes a row at least, and no row more than `width` characters.
        let cap = max(1, fitting.height * fitting.width)
        var rest = item.body[...]
        for _ in 0..<max(1, fitting.height) {
            let end = rest.firstIndex(of: "\n")
            lines.append(Line(String(rest[..<(end ?? rest.endIndex)].prefix(cap))))
            guard let end else { return true }
            rest = rest[rest.index(after: end)...]
        }
        return false
    }
}
