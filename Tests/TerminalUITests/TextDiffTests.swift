import TerminalUI
import Testing

@Suite struct TextDiffTests {
    @Test func marksRemovedAndAddedLines() {
        let diff = TextDiff.lines(expected: "a\nb\nc", actual: "a\nx\nc")
        #expect(diff == "  a\n- b\n+ x\n  c")
    }
}
