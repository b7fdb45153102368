import TerminalUI

/// Turns parsed Markdown blocks into rows of styled text no wider than a width: wrapped prose
/// with hanging indents for list items and quotes, code blocks cut rather than wrapped, tables
/// fitted to the width.
struct MarkdownRenderer {
    /// How the text's `[[links]]` are drawn, by key: marked when they lead nowhere to read, by
    /// title when written by id. Links not named here are drawn as written.
    var linkLooks: [String: LinkLook] = [:]

    /// The rows of one block at `width` cells, its text in `base` unless it says otherwise;
    /// `depth` is how many lists hold it (a nested list's bullet differs from its parent's).
    func block(_ node: MarkdownNode, width: Int, base: Style = .normal, depth: Int = 0) -> [Line] {
        let width = max(1, width)
        switch node.kind {
        case .paragraph:
            return wrapped(inlines(of: node, style: base), width: width)
        case .heading:
            return heading(node, width: width)
        case .blockQuote:
            let bar = Span("│ ", .quote)
            let rows = blocks(node.children, width: width - 2, base: Style(.quote), depth: depth)
            return prefixed(rows, first: bar, rest: bar)
        case .list:
            return list(node, width: width, base: base, depth: depth)
        case .codeBlock:
            return verbatim(node.literal, width: width, style: Style(.codeBlock), indent: 2)
        case .htmlBlock:
            return verbatim(node.literal, width: width, style: Style(.muted), indent: 0)
        case .thematicBreak:
            return [Line(String(repeating: "─", count: width), style: Style(.border))]
        case .table:
            return table(node, width: width, base: base)
        default:
            return blocks(node.children, width: width, base: base, depth: depth)
        }
    }

    /// Blocks one after another, a blank row between them unless `tight` (a tight list's item).
    func blocks(_ nodes: [MarkdownNode], width: Int, base: Style, depth: Int, tight: Bool = false) -> [Line] {
        var lines: [Line] = []
        for (index, node) in nodes.enumerated() {
            if index > 0 && !tight { lines.append(Line([])) }
            lines += block(node, width: width, base: base, depth: depth)
        }
        return lines
    }

    /// A heading: level 1 and 2 underlined with a rule as wide as their text, deeper levels
    /// after their `###` so the level still shows.
    private func heading(_ node: MarkdownNode, width: Int) -> [Line] {
        let style = Style(.heading, bold: true)
        let level = node.headingLevel
        guard level <= 2 else {
            let marks = Span(String(repeating: "#", count: level) + " ", .heading)
            let rows = wrapped(inlines(of: node, style: style), width: width - marks.width)
            return prefixed(rows, first: marks, rest: Span(String(repeating: " ", count: marks.width)))
        }
        let rows = wrapped(inlines(of: node, style: style), width: width)
        let ruleWidth = min(width, rows.map(\.width).max() ?? 0)
        return rows + [
            Line(String(repeating: level == 1 ? "═" : "─", count: max(1, ruleWidth)), style: Style(.heading))
        ]
    }

    /// A list: each item's blocks beside its marker, continuation rows under the item's text.
    private func list(_ node: MarkdownNode, width: Int, base: Style, depth: Int) -> [Line] {
        let bullets = ["• ", "◦ ", "▪ "]
        let items = node.children
        let ordered = node.isOrderedList
        let numbers = items.indices.map { node.listStart + $0 }
        let numberWidth = ordered ? String(numbers.last ?? 1).count + 2 : 0
        var lines: [Line] = []
        for (index, item) in items.enumerated() {
            if index > 0 && !node.isTightList { lines.append(Line([])) }
            let number = String(numbers[index]) + "."
            var marker =
                ordered
                ? number + String(repeating: " ", count: numberWidth - number.count) : bullets[depth % bullets.count]
            var style = base
            if let checked = item.taskChecked {
                // The box stands in for a bullet; a number stays in front of it. A ticked item
                // reads as done, box and all.
                marker = (ordered ? marker : "") + (checked ? "[x] " : "[ ] ")
                if checked { style = Style(.done) }
            }
            let markerSpan = Span(marker, style: style)
            let content = blocks(
                item.children, width: width - marker.count, base: style, depth: depth + 1, tight: node.isTightList)
            lines += prefixed(
                content.isEmpty ? [Line([])] : content, first: markerSpan,
                rest: Span(String(repeating: " ", count: marker.count)))
        }
        return lines
    }

    /// Text shown as written, one row per line, cut (not wrapped) at the width.
    private func verbatim(_ text: String, width: Int, style: Style, indent: Int) -> [Line] {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false)
        if rows.last?.isEmpty == true { rows.removeLast() }
        let pad = String(repeating: " ", count: min(indent, max(0, width - 1)))
        let room = max(1, width - pad.count)
        return rows.map { row in
            let expanded = row.contains("\t") ? row.replacingTabs() : String(row)
            return Line([Span(pad), Span(expanded.truncated(toWidth: room), style: style)])
        }
    }

    /// Rows wrapped at `width`, each logical line (see `inlines(of:style:)`) on rows of its own.
    /// A row after the first starts at its first word (a wrap before a space leaves it there).
    /// A line that fits is kept as it is: most lines of a note typed line by line do.
    func wrapped(_ logical: [Line], width: Int) -> [Line] {
        logical.flatMap { line in
            if line.fits(width) { return [line] }
            return Paragraph.wrap(line, width: max(1, width)).enumerated().map { index, row in
                index == 0 ? row : row.droppingLeadingSpaces()
            }
        }
    }

    /// Rows with `first` in front of the first and `rest` in front of the others.
    func prefixed(_ rows: [Line], first: Span, rest: Span) -> [Line] {
        rows.enumerated().map { index, row in Line([index == 0 ? first : rest] + row.spans) }
    }
}

extension Line {
    /// Whether the line takes at most `width` cells, measured only when its size leaves a
    /// doubt: a character is at least one UTF-8 byte and at most two cells, an ASCII one one.
    func fits(_ width: Int) -> Bool {
        let bytes = spans.reduce(0) { $0 + $1.text.utf8.count }
        if bytes * 2 <= width { return true }
        if bytes <= width && spans.allSatisfy({ $0.text.utf8.allSatisfy { $0 < 0x80 } }) { return true }
        return self.width <= width
    }

    func droppingLeadingSpaces() -> Line {
        var spans = spans[...]
        while let first = spans.first, first.text.first == " " {
            let rest = first.text.drop { $0 == " " }
            if rest.isEmpty {
                spans.removeFirst()
            } else {
                spans[spans.startIndex].text = String(rest)
                break
            }
        }
        return Line(Array(spans))
    }
}

extension StringProtocol {
    /// Tabs as spaces to the next multiple of four columns, as a code block is usually written.
    func replacingTabs() -> String {
        var result = ""
        var column = 0
        for character in self {
            if character == "\t" {
                let spaces = 4 - column % 4
                result += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                result.append(character)
                column += character.displayWidth
            }
        }
        return result
    }
}
