import TerminalUI

/// Every key binding, grouped by where it applies, read from `Keymap.bindings`.
public enum HelpScreen {
    static func lines(width: Int) -> [Line] {
        let keyWidth = min(26, Keymap.bindings.map { $0.keyNames.displayWidth }.max() ?? 10)
        var lines: [Line] = [Line([Span("Quire keys", style: Style(.title, bold: true))]), Line([])]
        for context in KeyContext.allCases {
            let bindings = Keymap.bindings(in: context)
            guard !bindings.isEmpty else { continue }
            lines.append(Line([Span(context.title, .accent)]))
            for binding in bindings {
                let keys = binding.keyNames.padded(toWidth: keyWidth)
                lines.append(Line([Span("  " + keys, .keyName), Span("  " + binding.help)]))
            }
            lines.append(Line([]))
        }
        return lines
    }

    static func render(_ state: AppState, scroll: Int, into buffer: inout Buffer) {
        let chrome = chrome(size: state.size)
        Paragraph(lines(width: state.size.width), wrap: false, scroll: scroll)
            .render(into: &buffer, area: chrome.content.inset(horizontal: 1))
        StatusBar.render(
            state, left: Line("Help · j/k scroll · Esc close", style: Style(.statusBar)),
            into: &buffer, area: chrome.status)
    }

    /// The screen's frame: the keys are the content, so there is no line of key hints.
    public static func chrome(size: Size) -> ScreenChrome { ScreenChrome(size: size, hasHints: false) }

    /// The largest useful scroll at a size.
    public static func maxScroll(size: Size) -> Int {
        max(0, lines(width: size.width).count - chrome(size: size).content.height)
    }
}
