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

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let shown = rows(width: area.width).dropFirst(max(0, scroll)).prefix(area.height)
        for (offset, row) in shown.enumerated() {
            buffer.put(row, x: area.x, y: area.y + offset, maxWidth: area.width)
        }
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
