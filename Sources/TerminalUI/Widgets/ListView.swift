/// A vertical list of one-line rows with one selected row, scrolled to keep it visible.
///
/// The list only sees the rows it is given: callers pass the window of rows they loaded, the
/// list index of the first one and the total count, so a list of 100,000 items draws from a few
/// dozen rows. Rows in the list but outside the window show a placeholder.
public struct ListView: Widget {
    /// The rows available to draw, starting at list index `firstIndex`.
    public var rows: [Line]
    public var firstIndex: Int
    /// How many rows the whole list has.
    public var count: Int
    /// The list index shown on the top row of the area.
    public var top: Int
    public var selected: Int?
    public var selectedStyle: Style
    /// Drawn before every row: the first string for the selected row, the second for the others.
    public var marker: (selected: String, other: String)
    public var placeholder: Line

    public init(
        rows: [Line], firstIndex: Int = 0, count: Int? = nil, top: Int = 0, selected: Int? = nil,
        selectedStyle: Style = Style(.selection), marker: (selected: String, other: String) = ("> ", "  "),
        placeholder: Line = Line("…", style: Style(.muted))
    ) {
        self.rows = rows
        self.firstIndex = firstIndex
        self.count = count ?? (firstIndex + rows.count)
        self.top = top
        self.selected = selected
        self.selectedStyle = selectedStyle
        self.marker = marker
        self.placeholder = placeholder
    }

    /// The top row that keeps `selected` visible in `height` rows, moving as little as possible
    /// from `currentTop`.
    public static func scrolledTop(currentTop: Int, selected: Int, height: Int, count: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        var top = currentTop
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = min(top, max(0, count - height))
        return max(0, top)
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        for offset in 0..<area.height {
            let index = top + offset
            guard index >= 0, index < count else { break }
            let local = index - firstIndex
            let row = local >= 0 && local < rows.count ? rows[local] : placeholder
            let y = area.y + offset
            let isSelected = index == selected
            var x = buffer.put(
                isSelected ? marker.selected : marker.other, x: area.x, y: y,
                style: isSelected ? selectedStyle : .normal, maxWidth: area.width)
            x = buffer.put(row, x: x, y: y, maxWidth: area.maxX - x)
            if isSelected {
                buffer.setStyle(selectedStyle, in: area.row(offset))
            }
        }
    }
}
