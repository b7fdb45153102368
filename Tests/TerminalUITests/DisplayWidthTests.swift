import TerminalUI
import Testing

@Suite struct DisplayWidthTests {
    @Test func asciiTakesOneCellEach() {
        #expect("hello".displayWidth == 5)
        #expect("".displayWidth == 0)
    }

    @Test func cjkAndEmojiTakeTwoCells() {
        #expect("日本語".displayWidth == 6)
        #expect("한글".displayWidth == 4)
        #expect("🙂".displayWidth == 2)
        #expect("ｆｕｌｌ".displayWidth == 8)
    }

    @Test func combiningMarksTakeNoCell() {
        let decomposed = "e\u{0301}"  // e + combining acute accent: one grapheme
        #expect(decomposed.count == 1)
        #expect(decomposed.displayWidth == 1)
        #expect("Cafe\u{0301}".displayWidth == 4)
    }

    @Test func emojiSequencesTakeTwoCells() {
        #expect("👩‍💻".displayWidth == 2)  // ZWJ sequence
        #expect("🇫🇷".displayWidth == 2)  // flag
        #expect("❤️".displayWidth == 2)  // text heart with VS16
        #expect("👍🏽".displayWidth == 2)  // skin tone modifier
    }

    @Test func badgeGlyphsTakeOneCell() {
        for glyph in ["●", "↻", "!", "✗", "…", "─", "│"] {
            #expect(glyph.displayWidth == 1, "\(glyph)")
        }
    }

    @Test func truncationCountsCellsNotCharacters() {
        #expect("日本語テキスト".truncated(toWidth: 7) == "日本語…")
        #expect("日本語".truncated(toWidth: 6) == "日本語")
        #expect("abcdef".truncated(toWidth: 4) == "abc…")
        #expect("abcdef".truncated(toWidth: 4, ellipsis: false) == "abcd")
        #expect("日本".padded(toWidth: 6) == "日本  ")
    }
}
