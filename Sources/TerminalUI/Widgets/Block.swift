/// A box around an area, with an optional title in its top border.
public struct Block: Widget {
    public var title: Line?
    public var borderStyle: Style

    public init(title: Line? = nil, borderStyle: Style = Style(.border)) {
        self.title = title
        self.borderStyle = borderStyle
    }

    /// The area inside the border.
    public func inner(_ area: Rect) -> Rect {
        area.inset(horizontal: 1, vertical: 1)
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard area.width >= 2, area.height >= 2 else { return }
        let right = area.maxX - 1
        let bottom = area.maxY - 1
        for x in (area.x + 1)..<right {
            buffer.put("─", x: x, y: area.y, style: borderStyle)
            buffer.put("─", x: x, y: bottom, style: borderStyle)
        }
        for y in (area.y + 1)..<bottom {
            buffer.put("│", x: area.x, y: y, style: borderStyle)
            buffer.put("│", x: right, y: y, style: borderStyle)
        }
        buffer.put("┌", x: area.x, y: area.y, style: borderStyle)
        buffer.put("┐", x: right, y: area.y, style: borderStyle)
        buffer.put("└", x: area.x, y: bottom, style: borderStyle)
        buffer.put("┘", x: right, y: bottom, style: borderStyle)
        if let title, area.width > 4 {
            var framed = Line([Span(" ", style: borderStyle)])
            framed.spans += title.spans
            framed.append(Span(" ", style: borderStyle))
            buffer.put(framed, x: area.x + 1, y: area.y, maxWidth: area.width - 2)
        }
    }
}
