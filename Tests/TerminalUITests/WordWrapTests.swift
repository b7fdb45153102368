import TerminalUI
import Testing

@Suite struct WordWrapTests {
    @Test func breaksAtSpaces() {
        #expect(WordWrap.lines("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
    }

    @Test func cutsWordsLongerThanTheWidth() {
        #expect(WordWrap.lines("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
    }

    @Test func keepsNewlinesAndEmptyParagraphs() {
        #expect(WordWrap.lines("one\n\ntwo", width: 10) == ["one", "", "two"])
    }

    @Test func countsWideCharactersAsTwoCells() {
        #expect(WordWrap.lines("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
    }

    @Test func rowsCoverEveryCharacterOnce() {
        let text = Array("lorem ipsum dolor sit amet, consectetur adipiscing elit")
        for width in 1...20 {
            let rows = WordWrap.rows(text, width: width)
            #expect(rows.first?.lowerBound == 0)
            #expect(rows.last?.upperBound == text.count)
            for (a, b) in zip(rows, rows.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
            for row in rows {
                let visible = String(text[row]).trimmingTrailingSpaces
                #expect(visible.displayWidth <= width, "width \(width): \(String(text[row]))")
            }
        }
    }

    @Test func anEmptyParagraphIsOneEmptyRow() {
        #expect(WordWrap.rows([], width: 5) == [0..<0])
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.hasSuffix(" ") { copy.removeLast() }
        return copy
    }
}
