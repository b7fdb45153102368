import QuireCore
import Testing

@testable import TerminalUI

/// Text of ASCII bytes is measured and drawn by a fast path (a cell a byte); it must give what
/// measuring and drawing grapheme by grapheme gives, for every text, whatever the buffer held.
@Suite struct ASCIIFastPathTests {
    /// Graphemes where the fast path could go wrong: controls, a carriage return before a line
    /// feed (one grapheme of two ASCII bytes), ASCII followed by a mark that joins it, a keycap
    /// that starts with an ASCII digit, wide ones that the text may half overwrite.
    static let awkward = [
        "\t", "\r", "\n", "\r\n", "\u{7F}", "\u{1B}", "\u{85}", "e\u{301}", "1\u{FE0F}\u{20E3}", "é", "漢", "😀", "",
    ]

    static func text(_ random: inout SeededRandom) -> String {
        let length = Int.random(in: 0..<24, using: &random)
        let asciiOnly = Int.random(in: 0..<2, using: &random) == 0
        var text = ""
        for _ in 0..<length {
            if asciiOnly || Int.random(in: 0..<3, using: &random) > 0 {
                text.append(Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random))))
            } else {
                text += awkward[Int.random(in: 0..<awkward.count, using: &random)]
            }
        }
        return text
    }

    /// What `put(_ text:...)` did before it had a fast path: a grapheme at a time.
    static func putEachGrapheme(
        _ text: String, into buffer: inout Buffer, x: Int, y: Int, style: Style, maxWidth: Int?
    ) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? buffer.width
        var column = x
        for character in text {
            if column >= limit { break }
            let used = buffer.put(character, x: column, y: y, style: style, limit: limit)
            if used == 0 && character.displayWidth > 0 { break }
            column += used
        }
        return column
    }

    @Test(arguments: 0..<400)
    func measuringTheTextGivesTheSumOfItsGraphemes(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let text = Self.text(&random)
        #expect(
            text.displayWidth == text.reduce(0) { $0 + DisplayWidth.of($1) }, "seed \(seed): \(text.debugDescription)")
        #expect(text[...].displayWidth == text.displayWidth)
    }

    @Test(arguments: 0..<400)
    func drawingTheTextGivesTheCellsOfDrawingEachGrapheme(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &+ 10_000)
        var before = Buffer(size: Size(width: 12, height: 3))
        // Wide graphemes already on screen, which the text may overwrite half of.
        for _ in 0..<Int.random(in: 0..<4, using: &random) {
            before.put(
                Self.text(&random), x: Int.random(in: 0..<12, using: &random), y: Int.random(in: 0..<3, using: &random),
                style: .normal)
            before.put(
                "漢字", x: Int.random(in: 0..<12, using: &random), y: Int.random(in: 0..<3, using: &random),
                style: .normal)
        }
        let text = Self.text(&random)
        let x = Int.random(in: -2..<14, using: &random)
        let y = Int.random(in: -1..<4, using: &random)
        let maxWidth = Int.random(in: 0..<3, using: &random) == 0 ? nil : Int.random(in: -1..<15, using: &random)
        let style = Style(
            Int.random(in: 0..<2, using: &random) == 0 ? .normal : .accent,
            bold: Int.random(in: 0..<2, using: &random) == 0)
        var fast = before
        var slow = before
        let end = fast.put(text, x: x, y: y, style: style, maxWidth: maxWidth)
        let expected = Self.putEachGrapheme(text, into: &slow, x: x, y: y, style: style, maxWidth: maxWidth)
        #expect(
            end == expected, "seed \(seed): \(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth))")
        let same = fast == slow
        #expect(same, "seed \(seed): \(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth))")
    }

    @Test func aGraphemeThatStartsWithAnASCIIByteIsMeasuredWhole() {
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)  // keycap one
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("\r\n") == 1)
        #expect("a\r\nb".displayWidth == 3)
        #expect("#\u{FE0F}\u{20E3}!".displayWidth == 3)
    }

    /// A mark just past the last column drawn joins the last drawn grapheme: "c" + U+0301 is one
    /// cell, "ć", though the mark itself is clipped.
    @Test(arguments: ["abc\u{301}", "ab1\u{FE0F}\u{20E3}"])
    func whatFollowsTheClipStillJoinsTheLastCell(text: String) {
        var fast = Buffer(size: Size(width: 8, height: 1))
        var slow = fast
        let end = fast.put(text, x: 0, y: 0, style: .normal, maxWidth: 3)
        let expected = Self.putEachGrapheme(text, into: &slow, x: 0, y: 0, style: .normal, maxWidth: 3)
        #expect(end == expected)
        #expect(fast[2, 0] == slow[2, 0])
        #expect(fast[2, 0].symbol != "c" && fast[2, 0].symbol != "1")
    }
}
