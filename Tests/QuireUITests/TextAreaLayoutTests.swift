import QuireCore
import QuireUI
import TerminalUI
import Testing

/// The text area remembers how many rows each line wraps to and rewraps only what an edit
/// touched: after any sequence of keys, what it says must equal a wrap of the whole text.
@Suite struct TextAreaLayoutTests {
    /// The cursor's row and column from a fresh wrap of every line (the slow, obvious way).
    func expectedCursor(_ area: TextArea, width: Int) -> Point {
        let rows = area.visualRows(width: width)
        var index = rows.lastIndex { $0.line == area.line } ?? 0
        if let first = rows.firstIndex(where: {
            $0.line == area.line && area.column >= $0.range.lowerBound && area.column < $0.range.upperBound
        }) {
            index = first
        }
        let row = rows[index]
        return Point(x: String(area.lines[row.line][row.range.lowerBound..<area.column]).displayWidth, y: index)
    }

    @Test func cachedRowsAgreeWithAFullWrapAfterRandomEdits() {
        var random = SeededRandom(seed: 13)
        let words = ["alpha ", "beta ", "gamma\n", "日本語 ", "x", "longwordwithoutspaces ", "\n"]
        var text = ""
        for _ in 0..<300 { text += words[Int(random.next() % UInt64(words.count))] }
        var area = TextArea(text)
        let width = 17
        for step in 0..<2000 {
            switch random.next() % 8 {
            case 0: area.newline()
            case 1: area.backspace()
            case 2: area.deleteForward()
            case 3: area.moveVertically(by: Int(random.next() % 7) - 3, width: width)
            case 4: area.moveLeft()
            case 5: area.moveRight()
            default: area.insert(Character(words[Int(random.next() % UInt64(words.count))].prefix(1).description))
            }
            area.scrollToCursor(width: width, height: 6)
            let expected = expectedCursor(area, width: width)
            #expect(area.cursorPosition(width: width) == expected, "step \(step)")
            if area.cursorPosition(width: width) != expected { return }
        }
        #expect(area.utf8Count == area.text.utf8.count)
        #expect(!area.differs(from: area.text))
    }
}
