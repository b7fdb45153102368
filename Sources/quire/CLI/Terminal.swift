import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the terminal on stdout can show: colour (honouring `NO_COLOR` and `TERM=dumb`, and only
/// on a terminal) and the display width of text (wide CJK and emoji take two cells).
struct Terminal {
    let colour: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colour = isatty(STDOUT_FILENO) == 1 && !noColour && environment["TERM"] != "dumb"
    }

    enum Role: String {
        case id = "2"
        case dim = "90"
        case high = "31"
        case medium = "33"
        case tag = "36"
        case badge = "35"
        case title = "1"
    }

    /// `text` in a colour role, or as it is when colour is off.
    func paint(_ text: String, _ role: Role) -> String {
        guard colour, !text.isEmpty else { return text }
        return "\u{1B}[\(role.rawValue)m\(text)\u{1B}[0m"
    }

    /// Columns `text` takes on a terminal: two for East Asian wide characters and emoji, none
    /// for combining marks and joiners, one for the rest.
    static func width(_ text: String) -> Int {
        // Printable ASCII, most titles and every tag in practice, is one column a byte.
        let utf8 = text.utf8
        if let ascii = utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }), let ascii {
            return ascii
        }
        var total = 0
        for scalar in text.unicodeScalars {
            total += width(of: scalar)
        }
        return total
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// `text` cut to at most `limit` columns, ending in `…` when cut.
    static func truncate(_ text: String, to limit: Int) -> String {
        guard width(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let cell = width(String(character))
            if used + cell > limit - 1 { break }
            result.append(character)
            used += cell
        }
        return result + "…"
    }

    /// `text` padded with spaces to `columns`.
    static func pad(_ text: String, to columns: Int) -> String {
        let missing = columns - width(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// Whether stdout is a terminal: a person reads it, not a script.
    static var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var isInputTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The terminal's width, or nil when stdout is not a terminal.
    static func columns() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }
}
