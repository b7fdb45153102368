import TerminalUI
import Testing

/// Bracketed paste: what comes between the markers is one piece of text, never keys; an escape
/// sequence the terminal library missed is its key or nothing, never Esc and stray characters.
@Suite struct InputDecoderTests {
    /// Feeds codes (a string's scalars) and the end of a read; returns what came out.
    static func decode(_ reads: [String], into decoder: inout InputDecoder) -> [TerminalInput] {
        var out: [TerminalInput] = []
        for read in reads {
            for scalar in read.unicodeScalars { out += decoder.feed(.code(scalar.value)) }
            out += decoder.endOfInput()
        }
        return out
    }

    static func decode(_ reads: String...) -> [TerminalInput] {
        var decoder = InputDecoder()
        return decode(reads, into: &decoder)
    }

    @Test func keysOutsideAPasteAreKeys() {
        #expect(Self.decode("ad\u{1B}") == [.key(.character("a")), .key(.character("d")), .key(.escape)])
        // Esc then a key that is no marker: both keys, in order.
        #expect(Self.decode("\u{1B}j") == [.key(.escape), .key(.character("j"))])
        // A marker cut short by the end of a read is the keys it was.
        #expect(
            Self.decode("\u{1B}[20") == [
                .key(.escape), .key(.character("[")), .key(.character("2")), .key(.character("0")),
            ])
    }

    @Test func sequencesTheLibraryMissedAreTheirKeysOrNothing() {
        #expect(Self.decode("\u{1B}[4~") == [.key(.end)])
        #expect(Self.decode("\u{1B}[1;5H\u{1B}OF\u{1B}[6~") == [.key(.home), .key(.end), .key(.pageDown)])
        #expect(Self.decode("\u{1B}[99xq") == [.key(.character("q"))])
        #expect(Self.decode("\u{1B}\u{1B}[A") == [.key(.escape), .key(.up)])
    }

    @Test func aPasteIsOneTextWithItsTabsAndLineBreaks() {
        let pasted = Self.decode("x\u{1B}[200~fst d\tafter tab\rline two\r\nthree\u{1B}[201~y")
        #expect(
            pasted == [
                .key(.character("x")), .paste("fst d\tafter tab\nline two\nthree"), .key(.character("y")),
            ])
    }

    @Test func aPasteSpanningReadsArrivesWhenItEnds() {
        var decoder = InputDecoder()
        #expect(Self.decode(["\u{1B}[200~first half, "], into: &decoder).isEmpty)
        #expect(decoder.isInPaste)
        #expect(Self.decode(["second half\u{1B}[20"], into: &decoder).isEmpty)
        #expect(Self.decode(["1~j"], into: &decoder) == [.paste("first half, second half"), .key(.character("j"))])
    }

    @Test func anEscInsideAPasteThatEndsNothingIsKept() {
        #expect(Self.decode("\u{1B}[200~a\u{1B}[2b\u{1B}\u{1B}[201~") == [.paste("a\u{1B}[2b\u{1B}")])
    }

    @Test func keysTheLibraryDecodedInsideAPasteKeepTheirText() {
        var decoder = InputDecoder()
        var out = Self.decode(["\u{1B}[200~a"], into: &decoder)
        out += decoder.feed(.key(.enter))
        out += decoder.feed(.key(.up))
        out += Self.decode(["b\u{1B}[201~"], into: &decoder)
        #expect(out == [.paste("a\nb")])
    }
}
