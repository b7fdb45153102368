/// Lines of styled text, optionally word-wrapped, scrolled by whole rows.
public struct Paragraph: Widget {
    public var lines: [Line]
    public var wrap: Bool
    /// Rows (after wrapping) skipped at the top.
    public var scroll: Int

    public init(_ lines: [Line], wrap: Bool = true, scroll: Int = 0) {
        self.lines = lines
        self.wrap = wrap
        self.scroll = scroll
    }

    public init(text: String, style: Style = .normal, wrap: Bool = true, scroll: Int = 0) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0), style: style) }
        self.init(lines, wrap: wrap, scroll: scroll)
    }

    /// The rows this paragraph takes at a width.
    public func rows(width: Int) -> [Line] {
        guard wrap else { return lines }
        return lines.flatMap { Paragraph.wrap($0, width: width) }
    }

    /// Wraps only the lines it shows: a line scrolled past is counted, without wrapping it when
    /// it surely fits one row, and nothing after the last row shown is looked at.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var skipped = max(0, scroll)
        var y = 0
        for line in lines where y < area.height {
            if skipped > 0, !wrap || Paragraph.surelyFitsOneRow(line, width: area.width) {
                skipped -= 1
                continue
            }
            for row in wrap ? Paragraph.wrap(line, width: area.width) : [line] where y < area.height {
                if skipped > 0 {
                    skipped -= 1
                    continue
                }
                buffer.put(row, x: area.x, y: area.y + y, maxWidth: area.width)
                y += 1
            }
        }
    }

    /// How many rows the paragraph takes at a width, counted no further than `limit`: a view
    /// that only needs to know whether the text reaches a row does not wrap all of it.
    public func rowCount(width: Int, upTo limit: Int) -> Int {
        var count = 0
        for line in lines where count < limit {
            let fits = !wrap || Paragraph.surelyFitsOneRow(line, width: width)
            count += fits ? 1 : Paragraph.wrap(line, width: width).count
        }
        return count
    }

    /// Whether a line takes one row at `width` for sure, read from its size alone: a character
    /// is at least one UTF-8 byte and at most two cells wide, an ASCII one one cell.
    static func surelyFitsOneRow(_ line: Line, width: Int) -> Bool {
        let bytes = line.spans.reduce(0) { $0 + $1.text.utf8.count }
        if bytes * 2 <= width { return true }
        return bytes <= width && line.spans.allSatisfy { $0.text.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// Wraps one styled line at spaces, keeping each character's style.
    public static func wrap(_ line: Line, width: Int) -> [Line] {
        var characters: [Character] = []
        var styles: [Style] = []
        for span in line.spans {
            for character in span.text {
                characters.append(character)
                styles.append(span.style)
            }
        }
        return WordWrap.rows(characters, width: width).map { range in
            var result = Line([])
            var index = range.lowerBound
            var end = range.upperBound
            while end > index && characters[end - 1] == " " { end -= 1 }
            while index < end {
                let style = styles[index]
                var text = ""
                while index < end && styles[index] == style {
                    text.append(characters[index])
                    index += 1
                }
                result.append(Span(text, style: style))
            }
            return result
        }
    }
}
