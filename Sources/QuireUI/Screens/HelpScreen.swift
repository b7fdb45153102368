import TerminalUI

/// Every key binding, grouped by where it applies, read from `Keymap.bindings`.
public enum HelpScreen {
    /// Below this many columns for the words beside the keys, the words go under them.
    static let narrowDescriptionWidth = 24

    /// `width` is the screen's; help is drawn one column in from each side.
    static func lines(width: Int) -> [Line] {
        let keyWidth = min(26, Keymap.bindings.map { $0.keyNames.displayWidth }.max() ?? 10)
        let textWidth = width - 2
        let narrow = textWidth - (2 + keyWidth + 2) < narrowDescriptionWidth
        var lines: [Line] = [Line([Span("Quire keys", style: Style(.title, bold: true))]), Line([])]
        for context in KeyContext.allCases {
            let bindings = Keymap.bindings(in: context)
            guard !bindings.isEmpty else { continue }
            lines.append(Line([Span(context.title, .accent)]))
            for binding in bindings {
                guard narrow else {
                    let keys = binding.keyNames.padded(toWidth: keyWidth)
                    lines.append(Line([Span("  " + keys, .keyName), Span("  " + binding.help)]))
                    continue
                }
                // A narrow terminal: the keys on their row, what they do wrapped below them.
                lines.append(Line([Span(" " + binding.keyNames, .keyName)]))
                for row in WordWrap.lines(binding.help, width: max(1, textWidth - 3)) {
                    lines.append(Line("   " + row))
                }
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
