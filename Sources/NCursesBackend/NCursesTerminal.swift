import CNCurses
import Glibc
import TerminalUI

/// The real terminal, through ncursesw: draws changed cells, reads keys, hands the terminal to
/// an editor and back, and always puts the terminal back the way it found it.
///
/// Confined to the app's UI queue (curses is not thread-safe); only `close` may also run from
/// a signal handler's queue, after the UI queue has stopped drawing.
public final class NCursesTerminal: TerminalBackend {
    /// Whether to use colour.
    public enum ColorMode: Sendable {
        /// Colour when the terminal has it and `NO_COLOR` is not set.
        case automatic
        case never
    }

    public private(set) var size: Size
    /// Something the person should know about how the terminal was set up (e.g. an unknown
    /// `TERM` replaced by a fallback); nil when all went as expected.
    public let notice: String?
    public let usesColor: Bool

    private let screen: OpaquePointer
    private let theme: Theme
    private var pairs: [ColorKey: Int16] = [:]
    private var lastAttributes: (attr_t, Int16)?
    private var cursorVisible: Bool?
    private var closed = false
    /// Bracketed paste: pasted text arrives between markers and is handed over as one paste.
    private var inputDecoder = InputDecoder()
    /// What the decoder completed and `readInput` has not yet handed over.
    private var decoded: [TerminalInput] = []

    /// Terminal types tried, in order, when `TERM` is unknown to terminfo.
    public static let fallbackTypes = ["xterm-256color", "xterm", "vt100"]

    /// How long a lone Esc waits for the rest of an escape sequence, in milliseconds.
    public static let escapeDelay: Int32 = 25

    public enum OpenError: Error, CustomStringConvertible {
        case noUsableTerminal(String)

        public var description: String {
            switch self {
            case .noUsableTerminal(let type):
                "cannot use terminal type '\(type)' nor any fallback; set TERM (e.g. TERM=xterm-256color)"
            }
        }
    }

    /// Starts curses on standard input and output.
    public init(environment: [String: String], colors: ColorMode = .automatic) throws {
        quire_set_locale()
        quire_install_crash_restore()
        let requested = environment["TERM"] ?? ""
        var opened = requested.isEmpty ? nil : quire_newterm(requested)
        var notice: String?
        if opened == nil {
            for fallback in NCursesTerminal.fallbackTypes {
                opened = quire_newterm(fallback)
                if opened != nil {
                    notice =
                        requested.isEmpty
                        ? "TERM is not set; using \(fallback)"
                        : "unknown terminal type '\(requested)'; using \(fallback)"
                    break
                }
            }
        }
        guard let opened else { throw OpenError.noUsableTerminal(requested) }
        screen = opened
        self.notice = notice

        raw()
        noecho()
        nonl()
        _ = quire_keypad(true)
        _ = quire_meta(true)
        set_escdelay(NCursesTerminal.escapeDelay)
        curs_set(0)
        quire_timeout(0)

        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        if colors == .automatic, !noColor, has_colors() {
            start_color()
            let defaults = use_default_colors() == OK
            usesColor = true
            theme = .standard
            pairs = NCursesTerminal.makePairs(theme: theme, defaultsAllowed: defaults)
        } else {
            usesColor = false
            theme = .monochrome
        }
        var rows: Int32 = 0
        var columns: Int32 = 0
        quire_size(&rows, &columns)
        size = Size(width: Int(columns), height: Int(rows))
        NCursesTerminal.setBracketedPaste(true)
    }

    deinit {
        close()
    }

    // MARK: - Drawing

    public func draw(_ updates: [CellUpdate], cursor: Point?) {
        guard !closed else { return }
        var text: [wchar_t] = []
        text.reserveCapacity(8)
        for update in updates where !update.cell.isContinuation {
            setAttributes(for: update.cell.style)
            text.removeAll(keepingCapacity: true)
            for scalar in update.cell.symbol.unicodeScalars { text.append(wchar_t(bitPattern: scalar.value)) }
            text.append(0)
            _ = quire_put(Int32(update.y), Int32(update.x), text)
        }
        if let cursor {
            showCursor(true)
            _ = quire_move(Int32(cursor.y), Int32(cursor.x))
        } else {
            showCursor(false)
        }
        _ = quire_refresh()
    }

    public func invalidate() {
        guard !closed else { return }
        _ = quire_clear()
        lastAttributes = nil
    }

    private func showCursor(_ visible: Bool) {
        guard cursorVisible != visible else { return }
        curs_set(visible ? 1 : 0)
        cursorVisible = visible
    }

    private func setAttributes(for style: Style) {
        let appearance = theme.appearance(for: style)
        var attributes = quire_a_normal()
        if appearance.bold { attributes |= quire_a_bold() }
        if appearance.dim { attributes |= quire_a_dim() }
        if appearance.underline { attributes |= quire_a_underline() }
        if appearance.reverse { attributes |= quire_a_reverse() }
        let pair = usesColor ? pairs[ColorKey(appearance.foreground, appearance.background)] ?? 0 : 0
        if let last = lastAttributes, last.0 == attributes, last.1 == pair { return }
        _ = quire_attr_set(attributes, pair)
        lastAttributes = (attributes, pair)
    }

    private struct ColorKey: Hashable {
        var foreground: TerminalColor
        var background: TerminalColor

        init(_ foreground: TerminalColor, _ background: TerminalColor) {
            self.foreground = foreground
            self.background = background
        }
    }

    /// One colour pair per foreground/background combination the theme uses.
    private static func makePairs(theme: Theme, defaultsAllowed: Bool) -> [ColorKey: Int16] {
        var result: [ColorKey: Int16] = [:]
        var next: Int16 = 1
        let limit = Int16(clamping: quire_color_pairs())
        for role in Role.allCases {
            guard let appearance = theme.appearances[role] else { continue }
            let key = ColorKey(appearance.foreground, appearance.background)
            if key == ColorKey(.default, .default) || result[key] != nil || next >= limit { continue }
            func number(_ color: TerminalColor, fallback: TerminalColor) -> Int16 {
                if color == .default && !defaultsAllowed { return Int16(fallback.rawValue) }
                return Int16(color.rawValue)
            }
            init_pair(next, number(key.foreground, fallback: .white), number(key.background, fallback: .black))
            result[key] = next
            next += 1
        }
        return result
    }

    // MARK: - Input

    public var inputDescriptor: Int32? { STDIN_FILENO }

    public func readInput() -> TerminalInput? {
        guard !closed else { return nil }
        while decoded.isEmpty {
            var character: wint_t = 0
            let result = quire_get_wch(&character)
            if result == ERR {
                // Nothing more waiting: a half-read paste marker was keys; a paste under way
                // goes on with the next read.
                decoded += inputDecoder.endOfInput()
                break
            }
            if result == KEY_CODE_YES {
                if Int32(character) == KEY_RESIZE { continue }
                if let key = NCursesTerminal.functionKey(Int32(character)) {
                    decoded += inputDecoder.feed(.key(key))
                }
                continue
            }
            decoded += inputDecoder.feed(.code(UInt32(character)))
        }
        return decoded.isEmpty ? nil : decoded.removeFirst()
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_FIND: return .home
        case KEY_END, KEY_SELECT, KEY_LL: return .end
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        default:
            let f0 = quire_key_f0()
            if code > f0 && code <= f0 + 24 { return .function(Int(code - f0)) }
            return nil
        }
    }

    // MARK: - Size

    public func refreshSize() -> Size {
        guard !closed else { return size }
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 {
            resizeterm(Int32(window.ws_row), Int32(window.ws_col))
        }
        var rows: Int32 = 0
        var columns: Int32 = 0
        quire_size(&rows, &columns)
        size = Size(width: Int(columns), height: Int(rows))
        return size
    }

    // MARK: - Handing the terminal over

    public func suspend() {
        guard !closed else { return }
        NCursesTerminal.setBracketedPaste(false)
        def_prog_mode()
        endwin()
    }

    public func resume() {
        guard !closed else { return }
        reset_prog_mode()
        NCursesTerminal.setBracketedPaste(true)
        _ = quire_clear()
        lastAttributes = nil
        cursorVisible = nil
        _ = refreshSize()
    }

    public func suspendToShell() {
        guard !closed else { return }
        suspend()
        quire_stop_for_shell()
        resume()
    }

    public func close() {
        guard !closed else { return }
        closed = true
        NCursesTerminal.setBracketedPaste(false)
        curs_set(1)
        endwin()
        delscreen(screen)
    }

    /// Asks the terminal to mark pasted text (`ESC[200~` … `ESC[201~`), or to stop: on while
    /// the app has the terminal, off whenever the shell or an editor has it.
    private static func setBracketedPaste(_ on: Bool) {
        let sequence = on ? "\u{1B}[?2004h" : "\u{1B}[?2004l"
        _ = sequence.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    }
}
