import QuireUI
import TerminalUI
import Testing

@Suite struct TextEditingTests {
    @Test func fieldInsertsAndDeletesAtTheCursor() {
        var field = TextField("helo")
        field.moveLeft()
        field.insert("l")
        #expect(field.text == "hello")
        field.moveToStart()
        field.deleteForward()
        field.moveToEnd()
        field.backspace()
        #expect(field.text == "ell")
        field.insert("a\nb")
        #expect(field.text == "ellab")
    }

    @Test func fieldScrollsToKeepTheCursorVisible() {
        let field = TextField("abcdefghij")
        let shown = field.visible(width: 5)
        #expect(shown.text == "ghij")
        #expect(shown.cursorX == 4)
        var start = field
        start.moveToStart()
        #expect(start.visible(width: 5) == ("abcde", 0))
    }

    @Test func areaJoinsAndSplitsLines() {
        var area = TextArea("ab\ncd")
        area.moveToEnd()
        area.moveLeft()
        area.moveLeft()
        area.backspace()  // joins the lines
        #expect(area.text == "abcd")
        area.newline()
        #expect(area.text == "ab\ncd")
        area.moveToStart()
        area.moveToRowEnd(width: 10)
        area.deleteForward()
        #expect(area.text == "abcd")
    }

    @Test func verticalMovementKeepsTheColumnAcrossShortLines() {
        var area = TextArea("a long line\nab\nanother line")
        area.moveToStart()
        for _ in 0..<8 { area.moveRight() }
        area.moveVertically(by: 1, width: 40)
        #expect(area.line == 1 && area.column == 2)
        area.moveVertically(by: 1, width: 40)
        #expect(area.line == 2 && area.column == 8)
    }

    @Test func verticalMovementWalksWrappedRows() {
        var area = TextArea("aaaa bbbb cccc")
        area.moveToStart()
        area.moveVertically(by: 1, width: 5)
        #expect(area.column == 5)
        #expect(area.cursorPosition(width: 5) == Point(x: 0, y: 1))
        area.moveToRowEnd(width: 5)
        #expect(area.column == 9)
        area.moveVertically(by: 5, width: 5)
        #expect(area.cursorPosition(width: 5).y == 2)
    }

    @Test func wideCharactersMoveTheCursorTwoCells() {
        var area = TextArea()
        area.insert("日本")
        #expect(area.cursorPosition(width: 10) == Point(x: 4, y: 0))
    }
}
