import Testing

@testable import TerminalUI

/// Text of ASCII bytes is measured and drawn by a fast path (a cell a byte); it must give what
/// measuring and drawing grapheme by grapheme gives, for every text, whatever the buffer held.
@Suite struct ASCIIFastPathTests {
    /// A small xorshift generator, so every failure names a seed that repeats it.
    struct Seeded {
        var state: UInt64
        init(_ seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    /// Graphemes where the fast path could go wrong: controls, a carriage return before a line
    /// feed (one grapheme of two ASCII bytes), ASCII followed by a mark that joins it, a keycap
    /// that starts with an ASCII digit, wide ones that the text may half overwrite.
    static let awkward = [
        "\t", "\r", "\n", "\r\n", "\u{7F}", "\u{1B}", "\u{85}", "e\u{301}", "1\u{FE0F}\u{20E3}", "é", "漢", "😀", "",
    ]

    static func text(_ random: inout Seeded) -> String {
        let length = random.next(24)
        let asciiOnly = random.next(2) == 0
        var text = ""
        for _ in 0..<length {
            if asciiOnly || random.next(3) > 0 {
                text.append(Character(Unicode.Scalar(UInt8(0x20 + random.next(0x5F)))))
            } else {
                text += awkward[random.next(awkward.count)]
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
        var random = Seeded(UInt64(seed))
        let text = Self.text(&random)
        #expect(
            text.displayWidth == text.reduce(0) { $0 + DisplayWidth.of($1) }, "seed \(seed): \(text.debugDescription)")
        #expect(text[...].displayWidth == text.displayWidth)
    }

    @Test(arguments: 0..<400)
    func drawingTheTextGivesTheCellsOfDrawingEachGrapheme(seed: Int) {
        var random = Seeded(UInt64(seed) &+ 10_000)
        var before = Buffer(size: Size(width: 12, height: 3))
        // Wide graphemes already on screen, which the text may overwrite half of.
        for _ in 0..<random.next(4) {
            before.put(Self.text(&random), x: random.next(12), y: random.next(3), style: .normal)
            before.put("漢字", x: random.next(12), y: random.next(3), style: .normal)
        }
        let text = Self.text(&random)
        let x = random.next(16) - 2
        let y = random.next(5) - 1
        let maxWidth = random.next(3) == 0 ? nil : random.next(16) - 1
        let style = Style(random.next(2) == 0 ? .normal : .accent, bold: random.next(2) == 0)
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
}
