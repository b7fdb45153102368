import QuireCore
import TerminalUI

/// The resolve (diff) screen: each conflict of an item as base / local / remote, side by side
/// on wide terminals and as a unified diff otherwise, with the chosen version marked.
enum ResolveScreen {
    typealias Version = ReviewVersions.Version

    /// Terminals at least this wide show the three versions side by side.
    static let sideBySideWidth = 100
    /// Unchanged body lines shown around a hunk.
    static let contextLines = 2
    /// Below this width the unified gutter shrinks to one letter per version.
    static let compactWidth = 60

    /// The frame of the screen: the header row, then the conflicts or the merged body.
    static func chrome(size: Size) -> ScreenChrome { ScreenChrome(size: size, headerRows: 1) }

    /// Where the conflicts are drawn, and the merged body while it is edited.
    static func textArea(size: Size) -> Rect { chrome(size: size).content.inset(horizontal: 1) }

    /// What choosing a side means for an edit against a delete.
    static func deletionLabel(_ resolve: ResolveState, _ choice: ResolveState.Choice) -> String {
        let side = choice == .remote ? resolve.versions.remote : resolve.versions.local
        return side.deleted ? "accept the delete" : "restore with the edit"
    }

    /// The conflict lines at a size, where the selected conflict puts the view, and how far
    /// `scrollOffset` may move it down from there.
    static func view(_ resolve: ResolveState, size: Size) -> (lines: [Line], top: Int, maxOffset: Int) {
        let content = textArea(size: size)
        let sideBySide = !resolve.prefersUnified && size.width >= sideBySideWidth
        let (lines, blocks) = body(resolve, width: content.width, sideBySide: sideBySide)
        let selected = blocks.indices.contains(resolve.selection) ? blocks[resolve.selection] : 0..<0
        let lastTop = max(0, lines.count - content.height)
        let top = selected.upperBound <= content.height ? 0 : min(selected.lowerBound, lastTop)
        return (lines, top, lastTop - top)
    }

    static func render(_ state: AppState, resolve: ResolveState, into buffer: inout Buffer) -> Point? {
        if let area = resolve.bodyEditor { return renderEditor(state, area: area, into: &buffer) }
        let size = state.size
        let chrome = chrome(size: size)
        var cursor: Point?
        if let editor = resolve.fieldEditor {
            cursor = renderFieldEditor(editor, into: &buffer, area: chrome.header)
        } else {
            renderHeader(resolve, into: &buffer, area: chrome.header)
        }

        let content = textArea(size: size)
        let lines: [Line]
        let scroll: Int
        if resolve.showsPreview {
            lines = preview(resolve, width: content.width)
            scroll = min(resolve.scrollOffset, max(0, lines.count - content.height))
        } else {
            let view = view(resolve, size: size)
            lines = view.lines
            scroll = view.top + min(resolve.scrollOffset, view.maxOffset)
        }
        for (offset, line) in lines.dropFirst(scroll).prefix(content.height).enumerated() {
            buffer.put(line, x: content.x, y: content.y + offset, maxWidth: content.width)
        }

        if let hints = chrome.hints { KeyHints(Keymap.hints(in: .resolve)).render(into: &buffer, area: hints) }
        let status = resolve.showsPreview ? previewStatus(resolve) : statusText(resolve)
        StatusBar.render(state, left: Line(status, style: Style(.statusBar)), into: &buffer, area: chrome.status)
        return cursor
    }

    /// The header row as a one-line input for a text field in conflict; returns the cursor.
    private static func renderFieldEditor(_ editor: FieldEditor, into buffer: inout Buffer, area: Rect) -> Point {
        let label = " Your \(editor.field.rawValue): "
        let keys = "  Enter keep · Esc drop"
        var x = buffer.put(label, x: area.x, y: area.y, style: Style(.accent, bold: true))
        let room = max(1, area.maxX - x - keys.displayWidth - 1)
        let shown = editor.input.visible(width: room)
        buffer.put(shown.text, x: x, y: area.y, maxWidth: room)
        let cursor = Point(x: x + shown.cursorX, y: area.y)
        x += room
        buffer.put(keys, x: x, y: area.y, style: Style(.muted), maxWidth: max(0, area.maxX - x))
        return cursor
    }

    // MARK: - Preview

    /// The whole item as the choices so far make it: what accepting would save.
    static func preview(_ resolve: ResolveState, width: Int) -> [Line] {
        let item = resolve.previewItem
        var lines: [Line] = []
        let left = resolve.unsettled.count
        if left > 0 {
            lines.append(
                Line(
                    "\(left) still to choose: shown as this device's value (body hunks as conflict markers)",
                    style: Style(.badgeReview)))
        }
        if item.deleted {
            lines.append(Line("Accepting deletes this item.", style: Style(.diffRemoved, bold: true)))
            return lines
        }
        lines.append(Line([Span("title  ", .muted), Span(item.title.isEmpty ? "(empty)" : item.title, .title)]))
        // Open or done is a task's; a note has neither.
        var facts = [describe(item, .kind)]
        if item.kind == .task { facts.append(describe(item, .done)) }
        if !item.tags.isEmpty { facts.append(describe(item, .tags)) }
        if item.due != nil { facts.append("due " + describe(item, .due)) }
        if item.priority != .none { facts.append("priority " + describe(item, .priority)) }
        if item.pinned { facts.append("pinned") }
        lines.append(Line([Span("       ", .muted), Span(facts.joined(separator: " · "), .muted)]))
        lines.append(Line([]))
        let body = LineDiff.lines(of: item.body)
        if body.isEmpty { lines.append(Line("(empty body)", style: Style(.muted))) }
        for (index, text) in body.enumerated() {
            for piece in WordWrap.lines(display(text), width: max(1, width)) {
                lines.append(Line(piece, style: Style(.normal)))
            }
            if index == body.count - 1, !text.hasSuffix("\n") { lines.append(Line(noNewline, style: Style(.muted))) }
        }
        return lines
    }

    private static func previewStatus(_ resolve: ResolveState) -> String {
        let left = resolve.unsettled.count
        return (left == 0 ? "Preview · Enter accepts" : "Preview · \(left) to choose")
            + " · p or Esc back to the conflicts"
    }

    // MARK: - Parts

    private static func renderHeader(_ resolve: ResolveState, into buffer: inout Buffer, area: Rect) {
        let count = resolve.rows.count
        let right =
            count == 0 ? "no conflicts" : "\(resolve.selection + 1) of \(count) conflict" + (count == 1 ? "" : "s")
        let rightWidth = min(right.displayWidth, max(0, area.width - 2))
        let leftRoom = max(0, area.width - rightWidth - 3)
        let title = resolve.versions.local.title.isEmpty ? "(untitled)" : resolve.versions.local.title
        let left = Line([Span(" Resolve ", style: Style(.accent, bold: true)), Span(title, .title)])
        buffer.put(left.truncated(toWidth: leftRoom), x: area.x, y: area.y, maxWidth: leftRoom)
        buffer.put(
            right.truncated(toWidth: rightWidth), x: area.maxX - 1 - rightWidth, y: area.y,
            style: Style(.muted), maxWidth: rightWidth)
    }

    /// Where the person stands: how many choices are left and what the keys do for this row.
    static func statusText(_ resolve: ResolveState) -> String {
        let left = resolve.unsettled.count
        let prefix = left == 0 ? "all chosen · Enter accepts" : "\(left) to choose"
        guard left > 0, let row = resolve.selectedRow else { return prefix }
        switch row {
        case .deletion:
            return prefix + " · l \(deletionLabel(resolve, .local)) · r \(deletionLabel(resolve, .remote))"
        case .field(let field):
            return prefix + " · \(field.rawValue): l local or r remote (both is for body hunks)"
        case .hunk:
            return prefix + " · l local · r remote · b both · e edit"
        }
    }

    /// The lines of every conflict block, and which lines each block takes.
    private static func body(_ resolve: ResolveState, width: Int, sideBySide: Bool) -> ([Line], [Range<Int>]) {
        var lines: [Line] = []
        var blocks: [Range<Int>] = []
        let context = hunkContext(resolve)
        for (index, row) in resolve.rows.enumerated() {
            let start = lines.count
            lines.append(heading(resolve, row: row, selected: index == resolve.selection))
            switch row {
            case .deletion:
                for choice in [ResolveState.Choice.local, .remote] {
                    let side = choice == .local ? resolve.versions.local : resolve.versions.remote
                    let what = side.deleted ? "deleted" : "edited: " + side.title
                    let chosen = resolve.choices[row] == choice
                    var line = Line([
                        Span(chosen ? "  ✓ " : "    ", .accent),
                        Span((choice == .local ? "local " : "remote") + "  ", .muted),
                        Span(what, side.deleted ? .diffRemoved : .diffAdded),
                    ])
                    // Narrow terminals leave the keys to the status bar.
                    if width >= compactWidth {
                        line.append(
                            Span("  (\(choice == .local ? "l" : "r") \(deletionLabel(resolve, choice)))", .muted))
                    }
                    lines.append(line)
                }
                // What the edit holds, so the person sees what a delete would throw away.
                let edited = resolve.versions.local.deleted ? resolve.versions.remote : resolve.versions.local
                lines += editedText(of: edited, width: width)
            case .field(let field):
                var values: [Version: [String]] = [:]
                for version in Version.allCases {
                    values[version] = [resolve.versions[version].map { describe($0, field) } ?? "(none)"]
                }
                lines += threeWay(values, chosen: marks(resolve, row), width: width, sideBySide: sideBySide)
            case .hunk(let hunk):
                let conflict = resolve.hunks[hunk]
                let around = context[hunk]
                lines += around.before.flatMap { wrappedContext($0, width: width, sideBySide: sideBySide) }
                let values: [Version: [String]] = [
                    .base: shown(conflict.base), .local: shown(conflict.local), .remote: shown(conflict.remote),
                ]
                lines += threeWay(values, chosen: marks(resolve, row), width: width, sideBySide: sideBySide)
                if resolve.editedBody != nil {
                    lines += editedHunk(resolve, hunk: hunk, width: width)
                }
                lines += around.after.flatMap { wrappedContext($0, width: width, sideBySide: sideBySide) }
            }
            lines.append(Line([]))
            blocks.append(start..<lines.count)
        }
        if resolve.rows.isEmpty {
            lines.append(Line("Nothing conflicts any more: Enter saves the merge.", style: Style(.muted)))
        }
        return (lines, blocks)
    }

    private static func heading(_ resolve: ResolveState, row: ResolveState.Row, selected: Bool) -> Line {
        let name: String
        switch row {
        case .deletion:
            name =
                resolve.merge.deleteConflict == .deletedLocally
                ? "deleted here, edited elsewhere" : "edited here, deleted elsewhere"
        case .field(let field):
            name = field.rawValue
        case .hunk(let index):
            name = "body, hunk \(index + 1) of \(resolve.hunks.count)"
        }
        let choice: String
        if case .hunk = row, resolve.editedBody != nil {
            choice = "edited"
        } else if case .field(let field) = row, let typed = resolve.editedFields[field] {
            // A value the person wrote settles the row: shown with its ✓, as a chosen side is.
            choice = "✓ typed “\(typed)”"
        } else if let chosen = resolve.choices[row] {
            choice = row == .deletion ? deletionLabel(resolve, chosen) : chosen.rawValue
        } else {
            choice = "choose"
        }
        let settled = resolve.isSettled(row)
        return Line([
            Span(selected ? "▸ " : "  ", .accent),
            Span(name, style: Style(selected ? .accent : .title, bold: true)),
            Span(" · ", .muted),
            Span(choice, settled ? .badgePending : .badgeReview),
        ])
    }

    /// Which of base, local, remote the row's choice takes.
    private static func marks(_ resolve: ResolveState, _ row: ResolveState.Row) -> Set<Version> {
        resolve.choices[row]?.versions ?? []
    }

    /// Three versions of some lines: in columns, or one after another with a gutter label.
    private static func threeWay(
        _ versions: [Version: [String]], chosen: Set<Version>, width: Int, sideBySide: Bool
    ) -> [Line] {
        if sideBySide {
            let column = max(1, (width - 2 - 6) / 3)
            var rows: [Line] = []
            var header = Line([Span("  ", .normal)])
            for version in Version.allCases {
                let isChosen = chosen.contains(version)
                let label = (isChosen ? "✓ " : "") + version.rawValue
                header.append(
                    Span(label.padded(toWidth: column), style: Style(isChosen ? .accent : .muted, bold: true)))
                if version != .remote { header.append(Span(" │ ", .border)) }
            }
            rows.append(header)
            // Long lines wrap inside their column: a paragraph in conflict must be readable whole.
            let wrapped = versions.mapValues { lines in lines.flatMap { WordWrap.lines($0, width: column) } }
            let height = max(1, wrapped.values.map(\.count).max() ?? 0)
            for lineIndex in 0..<height {
                var line = Line([Span("  ", .normal)])
                for version in Version.allCases {
                    let lines = wrapped[version] ?? []
                    let text = lineIndex < lines.count ? lines[lineIndex] : ""
                    line.append(Span(text.padded(toWidth: column), version.textRole))
                    if version != .remote { line.append(Span(" │ ", .border)) }
                }
                rows.append(line)
            }
            return rows
        }
        let compact = width < compactWidth
        let textWidth = max(1, width - unifiedIndent(width: width))
        var rows: [Line] = []
        for version in Version.allCases {
            let isChosen = chosen.contains(version)
            let label = compact ? String(version.rawValue.prefix(1).uppercased()) : version.rawValue.padded(toWidth: 6)
            let gutter = [
                Span(compact ? (isChosen ? "✓" : " ") : (isChosen ? "  ✓ " : "    "), .accent),
                Span(label, version.labelRole),
                Span(compact ? "│" : " │ ", .border),
            ]
            // Wrapped rows keep the border but not the label, so each line still reads as one.
            let continuation = [
                Span(String(repeating: " ", count: compact ? 2 : 10), .normal), Span(compact ? "│" : " │ ", .border),
            ]
            let lines = versions[version] ?? []
            if lines.isEmpty {
                rows.append(Line(gutter + [Span("(no lines)", .muted)]))
            }
            for text in lines {
                for (part, piece) in WordWrap.lines(text, width: textWidth).enumerated() {
                    rows.append(Line((part == 0 ? gutter : continuation) + [Span(piece, version.textRole)]))
                }
            }
        }
        return rows
    }

    /// Cells before a version's text in the unified layout: the mark, the label and the border.
    private static func unifiedIndent(width: Int) -> Int { width < compactWidth ? 3 : 13 }

    /// An unchanged line around a hunk, indented like the versions' text and wrapped to fit.
    private static func wrappedContext(_ text: String, width: Int, sideBySide: Bool) -> [Line] {
        let indent = sideBySide ? 2 : unifiedIndent(width: width)
        return WordWrap.lines(text, width: max(1, width - indent)).map { piece in
            Line([Span(String(repeating: " ", count: indent) + piece, .muted)])
        }
    }

    /// A few clean lines before and after each conflicting hunk of the body.
    private static func hunkContext(_ resolve: ResolveState) -> [(before: [String], after: [String])] {
        guard let chunks = resolve.merge.body?.chunks else { return [] }
        var result: [(before: [String], after: [String])] = []
        for (index, chunk) in chunks.enumerated() {
            guard case .conflict = chunk else { continue }
            var before: [String] = []
            var after: [String] = []
            if index > 0, case .clean(let lines) = chunks[index - 1] {
                before = lines.suffix(contextLines).map(display)
            }
            if index + 1 < chunks.count, case .clean(let lines) = chunks[index + 1] {
                after = lines.prefix(contextLines).map(display)
            }
            result.append((before, after))
        }
        return result
    }

    /// A hunk's lines as drawn, a last line without a line break marked as such.
    private static func shown(_ lines: [String]) -> [String] {
        var result: [String] = []
        for line in lines {
            // The merge's mark for a missing final newline is an empty line of its own.
            if line.isEmpty {
                result.append(noNewline)
                continue
            }
            result.append(display(line))
            if !line.hasSuffix("\n") { result.append(noNewline) }
        }
        return result
    }

    /// Shown under a last line that has no line break, which would otherwise look the same
    /// as one that has.
    static let noNewline = "⏎ no newline at end"

    /// The text the person wrote where an edited hunk was, or the whole edited body when the
    /// edit changed the lines around the hunk too.
    private static func editedHunk(_ resolve: ResolveState, hunk: Int, width: Int) -> [Line] {
        let pieces = resolve.editedHunkLines
        let own = pieces.indices.contains(hunk) ? pieces[hunk] : nil
        let label = own == nil ? "your edited body (it settles every hunk):" : "your edit here:"
        let text = own ?? LineDiff.lines(of: resolve.editedBody ?? "")
        var lines = [Line([Span("  ✓ ", .accent), Span(label, style: Style(.accent, bold: true))])]
        if text.isEmpty { lines.append(Line([Span("    ", .normal), Span("(no lines)", .muted)])) }
        for line in shown(text) {
            for piece in WordWrap.lines(line, width: max(1, width - 4)) {
                lines.append(Line([Span("    ", .normal), Span(piece, .diffAdded)]))
            }
        }
        return lines
    }

    /// The edited side of an edit against a delete: its title and body, as it would be kept.
    private static func editedText(of item: Item, width: Int) -> [Line] {
        var lines = [
            Line([Span("    edited  ", .muted), Span(item.title.isEmpty ? "(untitled)" : item.title, .title)])
        ]
        let body = LineDiff.lines(of: item.body)
        let limit = 12
        for text in shown(Array(body.prefix(limit))) {
            for piece in WordWrap.lines(text, width: max(1, width - 12)) {
                lines.append(Line([Span(String(repeating: " ", count: 12), .normal), Span(piece, .normal)]))
            }
        }
        if body.count > limit {
            lines.append(
                Line("            … \(body.count - limit) more lines (p previews the whole item)", style: Style(.muted))
            )
        }
        return lines
    }

    /// A body line as drawn: without its line break, tabs as spaces.
    private static func display(_ line: String) -> String {
        var text = line
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
        return text.replacingTabs
    }

    /// A field's value in words.
    static func describe(_ item: Item, _ field: Field) -> String {
        switch field {
        case .kind: item.kind.rawValue
        case .title: item.title.isEmpty ? "(empty)" : item.title
        case .body: item.body.isEmpty ? "(empty)" : (item.body.split(separator: "\n").first.map(String.init) ?? "")
        case .tags: item.tags.isEmpty ? "(none)" : item.tags.map(DetailsLine.tagWord).joined(separator: " ")
        case .done: item.done ? "done" : "open"
        case .due: item.due?.description ?? "(none)"
        case .priority: item.priority.rawValue
        case .pinned: item.pinned ? "pinned" : "not pinned"
        case .project: item.project ?? "(none)"
        case .recur: item.recur?.description ?? "(none)"
        case .wait: item.wait?.description ?? "(none)"
        case .scheduled: item.scheduled?.description ?? "(none)"
        case .attachments: item.attachments.isEmpty ? "(none)" : item.attachments.map(\.name).joined(separator: ", ")
        }
    }

    // MARK: - The merged-body editor

    private static func renderEditor(_ state: AppState, area: TextArea, into buffer: inout Buffer) -> Point? {
        let chrome = chrome(size: state.size)
        buffer.put(
            Line([
                Span(" Edit the merged body", style: Style(.accent)),
                Span(" · Ctrl-S keep · Esc drop", .muted),
            ]),
            x: chrome.header.x, y: chrome.header.y, maxWidth: chrome.header.width)
        let text = textArea(size: state.size)
        let cursor = area.render(into: &buffer, area: text)
        if let hints = chrome.hints {
            let shown = Keymap.bindings(in: .editor).filter { $0.hint != nil && $0.command != .switchField }
            KeyHints(shown.map { ($0.keys[0].name, $0.hint!) }).render(into: &buffer, area: hints)
        }
        StatusBar.render(
            state, left: Line("Merged body · line \(area.line + 1)", style: Style(.statusBar)),
            into: &buffer, area: chrome.status)
        return cursor
    }
}

extension ReviewVersions.Version {
    /// The colour of the version's name in the unified view: the diff's removed and added sides.
    fileprivate var labelRole: Role {
        switch self {
        case .base: .muted
        case .local: .diffRemoved
        case .remote: .diffAdded
        }
    }

    /// The colour of the version's text: the base is there for reference only.
    fileprivate var textRole: Role { self == .base ? .muted : .normal }
}

extension String {
    fileprivate var replacingTabs: String {
        guard contains("\t") else { return self }
        var result = ""
        for character in self { if character == "\t" { result += "    " } else { result.append(character) } }
        return result
    }
}
