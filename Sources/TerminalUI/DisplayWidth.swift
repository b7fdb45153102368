/// How many terminal cells text takes: wide CJK and emoji take two, combining marks none.
///
/// Computed from Unicode properties rather than the C library's `wcwidth`, whose answer depends
/// on the process locale and would make snapshots differ between machines. Control characters
/// count as one cell because the buffer draws them as a visible replacement.
public enum DisplayWidth {
    /// The width of one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        // One ASCII byte: most of every screen. Read from the UTF-8 bytes, which is several
        // times cheaper than `isASCII` (it looks at the grapheme's scalars).
        let utf8 = character.utf8
        if utf8.count == 1, utf8.first! < 0x80 { return 1 }
        if character.isASCII { return 1 }  // "\r\n", one grapheme of two ASCII bytes
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // One scalar in a block whose width is known without reading its properties: Latin,
        // Greek, Cyrillic and the common CJK blocks. Measuring a long note on opening it is
        // mostly this.
        if scalars.index(after: scalars.startIndex) == scalars.endIndex, let known = knownWidth(first.value) {
            return known
        }
        // An emoji-capable base followed by VARIATION SELECTOR-16 asks for emoji presentation.
        if scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji { return 2 }
        // Two regional indicators make one flag.
        if first.properties.isEmoji, (0x1F1E6...0x1F1FF).contains(first.value), scalars.count >= 2 { return 2 }
        var width = 0
        for scalar in scalars {
            let w = of(scalar)
            if w > 0 {
                width = w
                break
            }
        }
        return width
    }

    /// The width of one Unicode scalar on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return 1 }
        if value < 0xA0 { return 1 }  // C1 controls: drawn as a replacement
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return value == 0x00AD ? 1 : 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and finals join
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// The width of a scalar from blocks that hold no marks, controls, emoji or other
    /// exceptions; nil elsewhere (then its properties decide).
    static func knownWidth(_ value: UInt32) -> Int? {
        switch value {
        case 0xA0...0x2FF, 0x370...0x482, 0x48A...0x52F: 1  // Latin-1 to IPA, Greek, Cyrillic
        case 0x3001...0x3029, 0x3041...0x3096, 0x30A0...0x30FF: 2  // CJK punctuation, kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: 2  // Han, Hangul, fullwidth
        default: nil
        }
    }

    /// East Asian Wide and Fullwidth blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18AFF, 0x1B000...0x1B2FF,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension Character {
    /// Terminal cells this grapheme takes (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }
}

extension StringProtocol {
    /// Terminal cells this text takes when drawn on one line.
    public var displayWidth: Int {
        if let width = asciiWidth { return width }
        var total = 0
        for character in self { total += DisplayWidth.of(character) }
        return total
    }

    /// The width of text made only of ASCII bytes other than a carriage return: one cell a
    /// byte, since each such byte is a grapheme of its own (`\r\n` is one grapheme of two).
    /// Nil for any other text. Rendering a screen measures every cell, so this is its hot path.
    var asciiWidth: Int? {
        var count = 0
        for byte in utf8 {
            guard byte < 0x80, byte != 0x0D else { return nil }
            count += 1
        }
        return count
    }

    /// The longest prefix that fits in `width` cells; with `ellipsis`, text that does not fit
    /// ends in `…` so the cut is visible.
    public func truncated(toWidth width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if displayWidth <= width { return String(self) }
        let limit = ellipsis ? width - 1 : width
        var result = ""
        var used = 0
        for character in self {
            let w = character.displayWidth
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        return ellipsis ? result + "…" : result
    }

    /// The text padded with spaces (or cut) to exactly `width` cells.
    public func padded(toWidth width: Int) -> String {
        let cut = truncated(toWidth: width)
        let missing = width - cut.displayWidth
        return missing > 0 ? cut + String(repeating: " ", count: missing) : cut
    }
}
