import QuireCore
import TerminalUI

/// One item on the whole screen (Enter on the list), scrolled with j/k.
public enum DetailScreen {
    static func render(_ state: AppState, scroll: Int, into buffer: inout Buffer) {
        let area = Rect(size: state.size)
        let showsHints = state.size.height >= 10
        let rows = area.split(.vertical, [.fill, .length(showsHints ? 1 : 0), .length(1)])
        if let item = state.list.selectedItem {
            Paragraph(ItemDetails.lines(item, today: state.today), scroll: scroll)
                .render(into: &buffer, area: rows[0].inset(horizontal: 1))
        }
        if showsHints { KeyHints(Keymap.hints(in: .detail)).render(into: &buffer, area: rows[1]) }
        StatusBar.render(state, left: StatusBar.listText(state), into: &buffer, area: rows[2])
    }

    /// The largest useful scroll: the last row of text at the bottom of the view.
    public static func maxScroll(item: Item, size: Size, today: Day?) -> Int {
        let height = size.height - (size.height >= 10 ? 2 : 1)
        let count = Paragraph(ItemDetails.lines(item, today: today)).rows(width: max(1, size.width - 2)).count
        return max(0, count - height)
    }
}
