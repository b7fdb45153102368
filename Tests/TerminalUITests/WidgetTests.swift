import QuireTestSupport
import TerminalUI
import Testing

@Suite struct WidgetTests {
    @Test func blockDrawsABorderAndTitle() {
        var buffer = Buffer(size: Size(width: 20, height: 4))
        let block = Block(title: Line("Notes 日本"))
        block.render(into: &buffer, area: buffer.area)
        Paragraph(text: "inside").render(into: &buffer, area: block.inner(buffer.area))
        assertSnapshot(buffer.text, named: "block")
        #expect(block.inner(buffer.area) == Rect(x: 1, y: 1, width: 18, height: 2))
    }

    @Test func paragraphWrapsAndScrolls() {
        var buffer = Buffer(size: Size(width: 12, height: 3))
        let paragraph = Paragraph(text: "one two three four five six seven", scroll: 1)
        paragraph.render(into: &buffer, area: buffer.area)
        #expect(buffer.lines == ["three four", "five six", "seven"])
        #expect(paragraph.rows(width: 12).count == 4)
    }

    /// Drawing from a scroll wraps only what it shows; what it shows is the full wrap's rows
    /// from there, for short lines, long ones, wide characters and blank lines alike.
    @Test func paragraphDrawsTheFullWrapsRowsFromItsScroll() {
        let text = "short\n\none two three four five six seven eight\n日本語のメモ、新しい計画について話す\nx\n\nthe end"
        for wrap in [true, false] {
            let rows = Paragraph(text: text, wrap: wrap).rows(width: 10)
            for scroll in 0...rows.count {
                var buffer = Buffer(size: Size(width: 10, height: 4))
                Paragraph(text: text, wrap: wrap, scroll: scroll).render(into: &buffer, area: buffer.area)
                var expected = Buffer(size: Size(width: 10, height: 4))
                for (offset, row) in rows.dropFirst(scroll).prefix(4).enumerated() {
                    expected.put(row, x: 0, y: offset, maxWidth: 10)
                }
                #expect(buffer.lines == expected.lines, "wrap \(wrap), scroll \(scroll)")
            }
            #expect(Paragraph(text: text, wrap: wrap).rowCount(width: 10, upTo: 100) == rows.count)
            #expect(Paragraph(text: text, wrap: wrap).rowCount(width: 10, upTo: 3) >= 3)
        }
    }

    @Test func paragraphKeepsStylesAcrossWraps() {
        let line = Line([Span("plain "), Span("tagged words", .tag)])
        let rows = Paragraph.wrap(line, width: 9)
        #expect(rows.map(\.plainText) == ["plain", "tagged", "words"])
        #expect(rows[1].spans.map(\.style.role) == [.tag])
    }

    @Test func listShowsTheWindowItWasGivenAndMarksTheSelection() {
        var buffer = Buffer(size: Size(width: 16, height: 4))
        let list = ListView(
            rows: ["row 10", "row 11", "row 12"], firstIndex: 10, count: 100, top: 9, selected: 11)
        list.render(into: &buffer, area: buffer.area)
        #expect(buffer.lines == ["  …", "  row 10", "> row 11", "  row 12"])
        #expect(buffer.roleMask(.selection, row: 2) == String(repeating: "^", count: 16))
        #expect(buffer.roleMask(.selection, row: 1) == "")
    }

    @Test func listStopsAtItsEnd() {
        var buffer = Buffer(size: Size(width: 10, height: 4))
        ListView(rows: ["a", "b"], selected: 0).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines == ["> a", "  b", "", ""])
    }

    @Test(arguments: [(0, 5, 0), (7, 0, 3), (2, 5, 2), (99, 0, 95)])
    func scrollingKeepsTheSelectionVisible(selected: Int, currentTop: Int, expected: Int) {
        #expect(ListView.scrolledTop(currentTop: currentTop, selected: selected, height: 5, count: 100) == expected)
    }

    @Test func statusLineCutsTheLeftPartFirst() {
        var buffer = Buffer(size: Size(width: 30, height: 1))
        StatusLine(left: Line("a long description of the view"), right: Line("3 pending"))
            .render(into: &buffer, area: buffer.area)
        #expect(buffer.text == " a long descriptio… 3 pending")
        #expect(buffer.roleMask(.statusBar, row: 0).count == 30)
    }

    @Test func keyHintsStopWhereTheRoomEnds() {
        var buffer = Buffer(size: Size(width: 24, height: 1))
        KeyHints([("a", "new"), ("/", "search"), ("?", "help"), ("q", "quit")])
            .render(into: &buffer, area: buffer.area)
        #expect(buffer.text == " a new  / search  ? help")
    }
}
