/// A Markdown task box in a body (`- [ ] call mom`, `* [x] done`, `1. [ ] first`): what the
/// item view ticks, as an ordinary edit of the body.
public struct TaskBox: Hashable, Sendable {
    /// Where the character between the brackets is, in the body's UTF-8 bytes.
    public var offset: Int
    public var checked: Bool
    /// The words after the box.
    public var text: String

    /// The boxes of a body in order, outside fenced code (as the rendered note shows them).
    /// A box is a list item's first thing: a list marker (`-`, `*`, `+`, or digits and `.` or
    /// `)`), a space, then `[ ]`, `[x]` or `[X]` followed by a space or the line's end.
    public static func boxes(in body: String) -> [TaskBox] {
        guard body.utf8.contains(UInt8(ascii: "[")) else { return [] }
        return MarkdownLines.outsideCodeBlocks(Array(body.utf8)).compactMap(box(onLine:))
    }

    /// Whether the body holds `[ ]`, `[x]` or `[X]` anywhere: a cheap test, one pass over the
    /// bytes with nothing allocated, for what is drawn on every frame (the item view's hint that
    /// `x` ticks a box) where `boxes(in:)` would parse every line of a long note. It can say yes
    /// for brackets that are no box (inside code); ticking then says there is none.
    public static func mayHoldBoxes(_ body: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in body.utf8 {
            if byte == UInt8(ascii: "]"), previous.0 == UInt8(ascii: "["),
                previous.1 == UInt8(ascii: " ") || previous.1 | 0x20 == UInt8(ascii: "x")
            {
                return true
            }
            previous = (previous.1, byte)
        }
        return false
    }

    /// The body with `box` ticked if it was not, unticked if it was; the rest byte for byte.
    public static func toggling(_ box: TaskBox, in body: String) -> String {
        var bytes = Array(body.utf8)
        guard box.offset < bytes.count else { return body }
        bytes[box.offset] = box.checked ? UInt8(ascii: " ") : UInt8(ascii: "x")
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func box(onLine line: ArraySlice<UInt8>) -> TaskBox? {
        let space = UInt8(ascii: " ")
        var index = line.firstIndex { $0 != space && $0 != UInt8(ascii: "\t") } ?? line.endIndex
        guard index < line.endIndex else { return nil }
        if [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(line[index]) {
            index += 1
        } else {
            let digits = line[index...].prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            guard (1...9).contains(digits), index + digits < line.endIndex,
                line[index + digits] == UInt8(ascii: ".") || line[index + digits] == UInt8(ascii: ")")
            else { return nil }
            index += digits + 1
        }
        guard index < line.endIndex, line[index] == space else { return nil }
        index = line[index...].firstIndex { $0 != space } ?? line.endIndex
        guard index + 2 < line.endIndex, line[index] == UInt8(ascii: "["), line[index + 2] == UInt8(ascii: "]")
        else { return nil }
        let mark = line[index + 1]
        guard mark == space || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") else { return nil }
        let after = index + 3
        guard after == line.endIndex || line[after] == space || line[after] == UInt8(ascii: "\r") else { return nil }
        let text = String(decoding: line[after...], as: UTF8.self).trimmingWhitespace()
        return TaskBox(offset: index + 1, checked: mark != space, text: text)
    }
}
