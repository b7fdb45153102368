import QuireCore
import TerminalUI

/// One item on the whole screen (Enter on the list), scrolled with j/k: its text, then the items
/// that link to it. A file prompt (attach, save) takes the top row while it is open.
public enum DetailScreen {
    /// Draws the item view; where the cursor goes (in a file prompt).
    static func render(_ state: AppState, scroll: Int, into buffer: inout Buffer) -> Point? {
        let chrome = ScreenChrome(size: state.size, headerRows: state.prompt == nil ? 0 : 1)
        let cursor = state.prompt.map { PromptLine.render($0, into: &buffer, area: chrome.header) }
        let text = chrome.content.inset(horizontal: 1)
        if let item = state.list.selectedItem {
            // The body's lines down to the last row shown, not the whole of a long note.
            let reach = Size(width: max(1, text.width), height: scroll + text.height)
            Paragraph(
                ItemDetails.lines(
                    item, today: state.today, shownID: state.list.shownID(of: item), fitting: reach,
                    markdown: !state.showsRawText, links: state.itemLinks,
                    files: FileListing(states: state.shownAttachmentStates, selected: state.selectedAttachment)),
                scroll: scroll
            )
            .render(into: &buffer, area: text)
        }
        if let hints = chrome.hints, state.prompt != nil {
            KeyHints(Keymap.hints(in: .prompt)).render(into: &buffer, area: hints)
        } else if let hints = chrome.hints, let item = state.list.selectedItem {
            // Back and help stay in the row however narrow the terminal.
            KeyHints(Keymap.detailHints(for: item), keepingLast: 2).render(into: &buffer, area: hints)
        }
        StatusBar.render(state, left: StatusBar.listText(state), into: &buffer, area: chrome.status)
        return cursor
    }

    /// The scroll `wanted`, or the largest useful one when the text does not reach that far
    /// (its last row at the bottom of the view). Reads the item only down to the rows `wanted`
    /// would show: scrolling the start of a long note does not wrap all of it. `markdown` as the
    /// view shows the body: rendered, or raw (`m`).
    public static func scroll(
        _ wanted: Int, item: Item, shownID: String, size: Size, today: Day?, markdown: Bool = true,
        links: ItemLinks? = nil
    ) -> Int {
        let text = ScreenChrome(size: size).content.inset(horizontal: 1)
        let reach = Size(width: max(1, text.width), height: wanted + text.height)
        let lines = ItemDetails.lines(
            item, today: today, shownID: shownID, fitting: reach, markdown: markdown, links: links)
        let count = Paragraph(lines)
            .rowCount(width: reach.width, upTo: reach.height)
        return max(0, min(wanted, count - text.height))
    }
}
