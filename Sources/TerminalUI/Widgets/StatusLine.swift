/// One row with text on the left and on the right over a filled background.
///
/// When both do not fit, the right part wins its room first (it holds the sync state, which must
/// stay readable) and the left part is cut with an ellipsis.
public struct StatusLine: Widget {
    public var left: Line
    public var right: Line
    public var style: Style

    public init(left: Line, right: Line = Line([]), style: Style = Style(.statusBar)) {
        self.left = left
        self.right = right
        self.style = style
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, with: Cell(" ", style: style))
        let rightWidth = min(right.width, max(0, row.width - 2))
        let leftRoom = max(0, row.width - 1 - (rightWidth > 0 ? rightWidth + 2 : 0))
        let leftText = left.truncated(toWidth: leftRoom)
        buffer.put(leftText, x: row.x + 1, y: row.y, maxWidth: leftRoom)
        if rightWidth > 0 {
            let rightText = right.truncated(toWidth: rightWidth)
            buffer.put(rightText, x: row.maxX - 1 - rightWidth, y: row.y, maxWidth: rightWidth)
        }
    }
}
