import QuireCore
import TerminalUI

/// One item on the whole screen (Enter on the list), scrolled with j/k.
public enum DetailScreen {
    static func render(_ state: AppState, scroll: Int, into buffer: inout Buffer) {
        let chrome = ScreenChrome(size: state.size)
        if let item = state.list.selectedItem {
            Paragraph(
                ItemDetails.lines(item, today: state.today, shownID: state.list.shownID(of: item)), scroll: scroll
            )
            .render(into: &buffer, area: chrome.content.inset(horizontal: 1))
        }
        // Back and help stay in the row however narrow the terminal.
        if let hints = chrome.hints, let item = state.list.selectedItem {
            KeyHints(Keymap.detailHints(for: item), keepingLast: 2).render(into: &buffer, area: hints)
        }
        StatusBar.render(state, left: StatusBar.listText(state), into: &buffer, area: chrome.status)
    }

    /// The largest useful scroll: the last row of text at the bottom of the view.
    public static func maxScroll(item: Item, shownID: String, size: Size, today: Day?) -> Int {
        let text = ScreenChrome(size: size).content.inset(horizontal: 1)
        let count = Paragraph(ItemDetails.lines(item, today: today, shownID: shownID)).rows(width: max(1, text.width))
            .count
        return max(0, count - text.height)
    }
}
