import TerminalUI

extension MarkdownRenderer {
    /// A table in a box, fitted to the width: when its columns are wider than the room, the
    /// widest give way first and their cells wrap onto more rows.
    func table(_ node: MarkdownNode, width: Int, base: Style) -> [Line] {
        let alignments = node.tableAlignments
        let rows = node.children.filter { $0.kind == .tableRow }
        let columns = max(alignments.count, rows.map(\.children.count).max() ?? 0)
        guard columns > 0 else { return [] }
        let cells: [[Line]] = rows.map { row in
            let style = row.isHeaderRow ? base.bolded() : base
            let shown = row.children.map { cell in
                // A cell is one line: a break inside one reads as a space.
                Line(inlines(of: cell, style: style).flatMap { $0.spans + [Span(" ", style: style)] }.dropLast())
            }
            return shown + Array(repeating: Line([]), count: max(0, columns - shown.count))
        }
        let widths = Self.fitted(
            columns: (0..<columns).map { column in max(1, cells.map { $0[column].width }.max() ?? 1) },
            room: width - (3 * columns + 1))

        let border = Style(.border)
        func rule(_ left: String, _ middle: String, _ right: String) -> Line {
            Line(
                left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right,
                style: border)
        }
        var lines = [rule("┌", "┬", "┐")]
        for (index, row) in cells.enumerated() {
            let wrappedCells = row.enumerated().map { column, cell in Paragraph.wrap(cell, width: widths[column]) }
            let height = wrappedCells.map(\.count).max() ?? 1
            for part in 0..<height {
                var line = Line([Span("│ ", style: border)])
                for column in 0..<columns {
                    let piece = part < wrappedCells[column].count ? wrappedCells[column][part] : Line([])
                    let alignment = column < alignments.count ? alignments[column] : 0
                    line.spans += Self.aligned(piece, width: widths[column], alignment: alignment).spans
                    line.append(Span(column == columns - 1 ? " │" : " │ ", style: border))
                }
                lines.append(line)
            }
            if index == 0 && rows.first?.isHeaderRow == true && cells.count > 1 { lines.append(rule("├", "┼", "┤")) }
        }
        lines.append(rule("└", "┴", "┘"))
        return lines.map { $0.width > width ? $0.truncated(toWidth: width) : $0 }
    }

    /// Column widths that fit `room` cells: the widest column gives up a cell until they fit
    /// (or every column is down to one cell).
    static func fitted(columns: [Int], room: Int) -> [Int] {
        var widths = columns
        var excess = widths.reduce(0, +) - max(room, widths.count)
        while excess > 0 {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 1 else { break }
            // Down to the next widest at once, so a very wide column does not take a step per cell.
            let next = widths.filter { $0 < widths[widest] }.max() ?? widths[widest] - 1
            let cut = min(excess, max(1, widths[widest] - next))
            widths[widest] -= cut
            excess -= cut
        }
        return widths
    }

    /// A cell's text padded to its column, to the side its alignment says (`l`, `r`, `c`).
    static func aligned(_ text: Line, width: Int, alignment: UInt8) -> Line {
        let missing = max(0, width - text.width)
        let left: Int
        switch alignment {
        case UInt8(ascii: "r"): left = missing
        case UInt8(ascii: "c"): left = missing / 2
        default: left = 0
        }
        return Line(
            [Span(String(repeating: " ", count: left))] + text.spans + [
                Span(String(repeating: " ", count: missing - left))
            ])
    }
}
