/// Turns what the terminal library reads into keys and pastes.
///
/// Bracketed paste: a paste arrives as `ESC [ 200 ~`, the text, `ESC [ 201 ~`, and is handed
/// over as one piece of text, never as keys. Escape sequences the library did not know (its
/// terminfo entry and the terminal disagree) are read whole: a known one becomes its key (`End`
/// as `ESC [ 4 ~`), an unknown one is dropped, so that neither turns into Esc and stray
/// characters (Esc would close the screen).
///
/// Pure and incremental: feed it what each read brought (`feed`), then `endOfInput` when a read
/// found nothing more waiting. A paste may span many reads; it is handed over once its end
/// marker arrives. A sequence cut off at the end of a read is taken as the keys it was (a lone
/// Esc is Esc: the library has already waited for the rest).
public struct InputDecoder: Sendable {
    /// One thing a terminal library reads: a character code, or a key it already decoded.
    public enum Unit: Hashable, Sendable {
        case code(UInt32)
        case key(Key)
    }

    private static let escape: UInt32 = 27
    private static let pasteStart = codes("\u{1B}[200~")
    private static let pasteEnd = codes("\u{1B}[201~")
    /// Longer than any sequence a terminal sends for a key.
    private static let longestSequence = 16

    /// An escape sequence read so far (from its Esc), outside a paste.
    private var sequence: [UInt32] = []
    /// Inside a paste: its text so far, and the codes of an end marker matched so far.
    private var pasted: String.UnicodeScalarView?
    private var pendingEnd: [UInt32] = []

    public init() {}

    /// Whether a paste has started and not yet ended.
    public var isInPaste: Bool { pasted != nil }

    /// Takes one unit; returns what it completed (keys, a paste), in order.
    public mutating func feed(_ unit: Unit) -> [TerminalInput] {
        if pasted != nil { return feedPaste(unit) }
        switch unit {
        case .key(let key):
            return flushSequence() + [.key(key)]
        case .code(let code):
            return feed(code)
        }
    }

    /// A read found nothing more: a sequence cut short was keys.
    public mutating func endOfInput() -> [TerminalInput] {
        flushSequence()
    }

    // MARK: - Outside a paste

    private mutating func feed(_ code: UInt32) -> [TerminalInput] {
        guard !sequence.isEmpty else {
            if code == InputDecoder.escape {
                sequence = [code]
                return []
            }
            return Key.fromCode(code).map { [.key($0)] } ?? []
        }
        let introducer = sequence.count > 1 ? sequence[1] : nil
        switch introducer {
        case nil:
            // After Esc: `[` or `O` begins a sequence; anything else is Esc, then itself.
            guard code == 0x5B || code == 0x4F else { return flushSequence() + feed(code) }
            sequence.append(code)
            return []
        case 0x4F?:
            // `ESC O x`: one final character.
            sequence.append(code)
            defer { sequence = [] }
            return InputDecoder.key(ss3: code).map { [.key($0)] } ?? []
        default:
            switch code {
            case 0x20...0x3F:  // parameters and intermediates
                guard sequence.count < InputDecoder.longestSequence else { return flushSequence() + feed(code) }
                sequence.append(code)
                return []
            case 0x40...0x7E:  // the final byte
                sequence.append(code)
                defer { sequence = [] }
                if sequence == InputDecoder.pasteStart {
                    pasted = String.UnicodeScalarView()
                    return []
                }
                return InputDecoder.key(csi: sequence).map { [.key($0)] } ?? []
            default:
                return flushSequence() + feed(code)
            }
        }
    }

    private mutating func flushSequence() -> [TerminalInput] {
        let held = sequence
        sequence = []
        return held.compactMap { Key.fromCode($0).map(TerminalInput.key) }
    }

    /// The key of `ESC O x`, as terminals in application mode send it.
    private static func key(ss3 final: UInt32) -> Key? {
        switch Unicode.Scalar(final).map(Character.init) {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        default: nil
        }
    }

    /// The key of `ESC [ parameters final`; modifiers (`1;5H`) are not told apart.
    private static func key(csi sequence: [UInt32]) -> Key? {
        guard let last = sequence.last, let final = Unicode.Scalar(last).map(Character.init) else { return nil }
        let parameters = String(
            String.UnicodeScalarView(sequence.dropFirst(2).dropLast().compactMap(Unicode.Scalar.init)))
        let first = parameters.split(separator: ";").first.map(String.init) ?? ""
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "~":
            switch first {
            case "1", "7": return .home
            case "2": return .insert
            case "3": return .delete
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: - Inside a paste

    private mutating func feedPaste(_ unit: Unit) -> [TerminalInput] {
        guard case .code(let code) = unit else {
            // A library may still decode a key inside a paste; keep the text it stands for.
            appendPasted(pendingEnd)
            pendingEnd = []
            switch unit {
            case .key(.enter): pasted?.append("\n")
            case .key(.tab): pasted?.append("\t")
            default: break
            }
            return []
        }
        if code == InputDecoder.pasteEnd[pendingEnd.count] {
            pendingEnd.append(code)
            guard pendingEnd.count == InputDecoder.pasteEnd.count else { return [] }
            let text = InputDecoder.normalizingLineEnds(pasted ?? String.UnicodeScalarView())
            pasted = nil
            pendingEnd = []
            return [.paste(text)]
        }
        appendPasted(pendingEnd)
        pendingEnd = []
        if code == InputDecoder.escape {
            pendingEnd = [code]
        } else {
            appendPasted([code])
        }
        return []
    }

    private mutating func appendPasted(_ codes: [UInt32]) {
        for code in codes {
            if let scalar = Unicode.Scalar(code) { pasted?.append(scalar) }
        }
    }

    /// Terminals send a pasted line break as CR (Enter); text keeps it as LF.
    static func normalizingLineEnds(_ scalars: String.UnicodeScalarView) -> String {
        var result = String.UnicodeScalarView()
        var afterCR = false
        for scalar in scalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n", afterCR { continue }
            result.append(scalar == "\r" ? "\n" : scalar)
        }
        return String(result)
    }

    private static func codes(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value)
    }
}
