/// A row of short key reminders such as `a new  / search  ? help`, cut where the room ends.
public struct KeyHints: Widget {
    public var hints: [(key: String, label: String)]

    public init(_ hints: [(key: String, label: String)]) {
        self.hints = hints
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x + 1
        for hint in hints {
            let needed = hint.key.displayWidth + 1 + hint.label.displayWidth
            if x + needed > area.maxX { break }
            x = buffer.put(hint.key, x: x, y: area.y, style: Style(.keyName))
            x = buffer.put(" " + hint.label, x: x, y: area.y, style: Style(.keyHint))
            x += 2
        }
    }
}
