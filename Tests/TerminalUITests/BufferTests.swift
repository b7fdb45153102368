import TerminalUI
import Testing

@Suite struct BufferTests {
    @Test func textIsClippedAtTheEdgeAndTheLimit() {
        var buffer = Buffer(size: Size(width: 8, height: 2))
        let end = buffer.put("hello world", x: 2, y: 0)
        #expect(end == 8)
        buffer.put("abcdef", x: 0, y: 1, maxWidth: 3)
        #expect(buffer.lines == ["  hello", "abc"])
    }

    @Test func wideGraphemesUseTwoCells() {
        var buffer = Buffer(size: Size(width: 10, height: 1))
        let end = buffer.put("日本a", x: 0, y: 0)
        #expect(end == 5)
        #expect(buffer[0, 0].symbol == "日")
        #expect(buffer[1, 0].isContinuation)
        #expect(buffer[4, 0].symbol == "a")
        #expect(buffer.text == "日本a")
    }

    @Test func aWideGraphemeThatDoesNotFitBecomesASpace() {
        var buffer = Buffer(size: Size(width: 5, height: 1))
        buffer.put("abcd日", x: 0, y: 0)
        #expect(buffer[4, 0].symbol == " ")
        #expect(buffer.text == "abcd")
    }

    @Test func overwritingHalfAWideGraphemeBlanksTheOtherHalf() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        buffer.put("日本", x: 0, y: 0)
        buffer.put("x", x: 1, y: 0)  // right half of 日
        #expect(buffer[0, 0].symbol == " ")
        buffer.put("y", x: 2, y: 0)  // left half of 本
        #expect(buffer[3, 0].symbol == " ")
        #expect(buffer.text == " xy")
    }

    @Test func controlCharactersAreNeutralised() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        buffer.put("a\tb\u{1b}c", x: 0, y: 0)
        #expect(buffer.text == "a b?c")
    }

    @Test func combiningMarksStayWithTheirLetter() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        let end = buffer.put("Cafe\u{0301}!", x: 0, y: 0)
        #expect(end == 5)
        #expect(buffer[3, 0].symbol == "e\u{0301}")
        #expect(buffer[4, 0].symbol == "!")
    }

    @Test func roleMaskShowsWhereARoleLands() {
        var buffer = Buffer(size: Size(width: 8, height: 1))
        buffer.put("ab", x: 0, y: 0)
        buffer.put("cd", x: 3, y: 0, style: Style(.tag))
        #expect(buffer.roleMask(.tag, row: 0) == "   ^^")
    }
}
