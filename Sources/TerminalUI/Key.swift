/// A key press as the app sees it, independent of how the terminal encoded it.
public enum Key: Hashable, Sendable {
    /// A printable character (including space).
    case character(Character)
    /// A control chord, written with its lowercase letter: `.control("s")` is Ctrl-S.
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, tab, backTab, backspace, delete, insert, escape
    case function(Int)

    /// The name shown in help and key hints (`j`, `↓`, `Ctrl-S`, `Space`).
    public var name: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .control(let c): "Ctrl-" + String(c).uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .insert: "Insert"
        case .escape: "Esc"
        case .function(let n): "F\(n)"
        }
    }

    /// A key from a raw character code as terminals send it in raw mode: control codes become
    /// their chords (13 is Enter, 9 Tab, 27 Esc, 127 and 8 Backspace).
    public static func fromCode(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .control(" ")
        case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
        case 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }
}
