import QuireCore
import QuireUI
import TerminalUI
import Testing

/// The text area lays out only what it shows, from the first row on screen: after any sequence
/// of keys, what it draws and where its cursor is must equal a wrap of the whole text.
@Suite struct TextAreaLayoutTests {
    /// The cursor's row and column from a fresh wrap of every line (the slow, obvious way).
    static func expectedCursor(_ area: TextArea, width: Int) -> Point {
        let rows = area.visualRows(width: width)
        var index = rows.lastIndex { $0.line == area.line } ?? 0
        if let first = rows.firstIndex(where: {
            $0.line == area.line && area.column >= $0.range.lowerBound && area.column < $0.range.upperBound
        }) {
            index = first
        }
        let row = rows[index]
        let characters = area.characters(inLine: row.line)
        return Point(x: String(characters[row.range.lowerBound..<area.column]).displayWidth, y: index)
    }

    /// Every row of a full wrap as the screen draws it.
    static func wrappedRows(_ area: TextArea, width: Int) -> [String] {
        var lines: [Int: [Character]] = [:]
        return area.visualRows(width: width).map { row in
            if lines[row.line] == nil { lines[row.line] = area.characters(inLine: row.line) }
            var text = String(lines[row.line]![row.range])
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }

    /// Draws the area at `width` x `height` and checks the screen against a full wrap: the rows
    /// shown are consecutive rows of it from `top`, and the cursor is on its own row and column.
    /// Returns the full wrap's index of the first row shown and the cursor's row in it.
    @discardableResult
    static func checkScreen(
        _ area: TextArea, width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (first: Int, cursor: Int)? {
        let rect = Rect(x: 0, y: 0, width: width + 1, height: height)
        var buffer = Buffer(size: Size(width: width + 1, height: height))
        let drawn = area.render(into: &buffer, area: rect)
        let rows = wrappedRows(area, width: width)
        let first = (area.visualRows(width: width).firstIndex { $0.line == area.top.line } ?? 0) + area.top.row
        let expected = (0..<height).map { first + $0 < rows.count ? rows[first + $0] : "" }
        #expect(buffer.lines == expected, sourceLocation: sourceLocation)
        let cursor = expectedCursor(area, width: width)
        #expect(
            drawn == Point(x: cursor.x, y: cursor.y - first), "the cursor is on screen where the text puts it",
            sourceLocation: sourceLocation)
        guard buffer.lines == expected, drawn != nil else { return nil }
        return (first, cursor.y)
    }

    @Test func whatIsDrawnAgreesWithAFullWrapAfterRandomEdits() {
        var random = SeededRandom(seed: 13)
        let words = ["alpha ", "beta ", "gamma\n", "日本語 ", "x", "longwordwithoutspaces ", "\n"]
        var text = ""
        for _ in 0..<300 { text += words[Int(random.next() % UInt64(words.count))] }
        var area = TextArea(text)
        let width = 17
        let height = 6
        var first = 0
        for step in 0..<1500 {
            switch random.next() % 10 {
            case 0: area.newline()
            case 1: area.backspace()
            case 2: area.deleteForward()
            case 3: area.moveVertically(by: Int(random.next() % 15) - 7, width: width)
            case 4: area.moveLeft()
            case 5: area.moveRight()
            case 6: area.deleteWordBackward()
            case 7: area.insert(words[Int(random.next() % UInt64(words.count))])
            default: area.insert(Character(words[Int(random.next() % UInt64(words.count))].prefix(1).description))
            }
            area.scrollToCursor(width: width, height: height)
            guard let shown = Self.checkScreen(area, width: width, height: height) else {
                Issue.record("step \(step)")
                return
            }
            // It scrolls as little as it can: the view stays, or the cursor is at its edge.
            #expect(
                shown.first == first || shown.cursor == shown.first || shown.cursor == shown.first + height - 1,
                "step \(step)")
            first = shown.first
        }
        #expect(area.utf8Count == area.text.utf8.count)
        #expect(!area.differs(from: area.text))
    }

    /// A megabyte of text, in lines that wrap (some of them wide characters), as a long note is.
    static let hugeBody: String = {
        let paragraph =
            "A paragraph of a long note, written over months, long enough to wrap on any screen "
            + "and then some more words so that it takes three or four rows. 東京で会議。新しい計画について話す。"
        var body = ""
        var count = 0
        while body.utf8.count < (1 << 20) - 200 {
            count += 1
            body += "\(count). " + paragraph + "\n"
        }
        return body + "The last line."
    }()

    @Test func aHugeBodyOpensAtItsEndWithTheCursorAfterItsLastCharacter() throws {
        var area = TextArea(Self.hugeBody)
        let width = 79
        area.moveToEnd()
        area.scrollToCursor(width: width, height: 20)
        #expect(area.line == area.lineCount - 1 && area.column == "The last line.".count)
        let shown = try #require(Self.checkScreen(area, width: width, height: 20))
        #expect(shown.cursor == shown.first + 19, "the last row is the view's last")
    }

    @Test func typingAtTheEndOfAHugeBodyKeepsEveryOtherCharacter() throws {
        var area = TextArea(Self.hugeBody)
        let width = 79
        area.moveToEnd()
        area.scrollToCursor(width: width, height: 20)
        for character in " More." { area.insert(character) }
        area.newline()
        area.insert("新しい行")
        area.backspace()
        area.scrollToCursor(width: width, height: 20)
        #expect(area.text == Self.hugeBody + " More.\n新しい")
        #expect(area.utf8Count == area.text.utf8.count)
        #expect(area.differs(from: Self.hugeBody, original: true))
        Self.checkScreen(area, width: width, height: 20)

        // A page up, a page down and back to where it was: the rows agree with the full wrap.
        area.moveVertically(by: -18, width: width)
        area.scrollToCursor(width: width, height: 20)
        Self.checkScreen(area, width: width, height: 20)
        area.moveVertically(by: 18, width: width)
        area.scrollToCursor(width: width, height: 20)
        #expect(area.line == area.lineCount - 1 && area.column == 3)
        Self.checkScreen(area, width: width, height: 20)
    }

    @Test func movingToTheStartOfAHugeBodyShowsItsFirstRows() throws {
        var area = TextArea(Self.hugeBody)
        area.moveToEnd()
        area.scrollToCursor(width: 40, height: 10)
        area.moveToStart()
        area.scrollToCursor(width: 40, height: 10)
        let shown = try #require(Self.checkScreen(area, width: 40, height: 10))
        #expect(shown.first == 0 && shown.cursor == 0)
        #expect(area.isOnFirstRow(width: 40))
    }

    @Test func aLineFeedInACRLFStaysInItsLineAsTheCharacterItIs() {
        let text = "one\r\ntwo\nthree\n\nfour"
        let area = TextArea(text)
        #expect(area.lineCount == text.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(area.characters(inLine: 0) == Array("one\r\ntwo"))
        #expect(area.text == text)
        #expect(area == TextArea(text))
    }
}
