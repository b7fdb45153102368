/// A row of short key reminders such as `a new  / search  ? help`. Where they do not all fit,
/// hints are left out from the end of the row but the last `kept` (help and quit, say): a
/// person must always see how to get help and how to leave.
public struct KeyHints: Widget {
    public var hints: [(key: String, label: String)]
    /// How many hints at the end of the row stay whatever the width.
    public var kept: Int

    public init(_ hints: [(key: String, label: String)], keepingLast kept: Int = 0) {
        self.hints = hints
        self.kept = kept
    }

    /// The hints that fit in `width` cells: as many from the start as room allows, then the
    /// kept ones.
    public func shown(width: Int) -> [(key: String, label: String)] {
        func cells(_ hint: (key: String, label: String)) -> Int {
            hint.key.displayWidth + 1 + hint.label.displayWidth + 2
        }
        let room = width - 1
        guard hints.map(cells).reduce(0, +) > room + 2 else { return hints }
        let tail = Array(hints.suffix(min(kept, hints.count)))
        var used = tail.map(cells).reduce(0, +)
        var head: [(key: String, label: String)] = []
        for hint in hints.dropLast(tail.count) {
            guard used + cells(hint) <= room + 2 else { break }
            head.append(hint)
            used += cells(hint)
        }
        return head + tail
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x + 1
        for hint in shown(width: area.width) {
            let needed = hint.key.displayWidth + 1 + hint.label.displayWidth
            if x + needed > area.maxX { break }
            x = buffer.put(hint.key, x: x, y: area.y, style: Style(.keyName))
            x = buffer.put(" " + hint.label, x: x, y: area.y, style: Style(.keyHint))
            x += 2
        }
    }
}
