import TerminalUI

/// Where each part of the list screen goes at the current size; update and render share it so
/// that paging and drawing agree on how many rows the list has.
public struct ListLayout: Hashable, Sendable {
    /// The search or tag line at the top, when there is one.
    public var prompt: Rect?
    public var list: Rect
    /// The preview of the selected item, beside the list on wide terminals, below it on tall ones.
    public var preview: Rect?
    public var hints: Rect?
    public var status: Rect

    /// Terminals at least this wide show the preview beside the list.
    public static let sidePreviewWidth = 100
    /// Terminals at least this tall (and narrower) show the preview below the list.
    public static let bottomPreviewHeight = 30

    public init(size: Size, showsPrompt: Bool) {
        let area = Rect(size: size)
        let showsHints = size.height >= 10
        let rows = area.split(.vertical, [
            .length(showsPrompt ? 1 : 0), .fill, .length(showsHints ? 1 : 0), .length(1),
        ])
        prompt = showsPrompt ? rows[0] : nil
        hints = showsHints ? rows[2] : nil
        status = rows[3]
        let main = rows[1]
        if size.width >= ListLayout.sidePreviewWidth {
            let parts = main.split(.horizontal, [.percentage(55), .fill])
            list = parts[0]
            preview = parts[1]
        } else if size.height >= ListLayout.bottomPreviewHeight {
            let parts = main.split(.vertical, [.percentage(55), .fill])
            list = parts[0]
            preview = parts[1]
        } else {
            list = main
            preview = nil
        }
    }
}

/// Where each part of the editor goes.
public struct EditorLayout: Hashable, Sendable {
    public var heading: Rect
    public var title: Rect
    public var separator: Rect
    /// The body's text area; one column narrower than the screen on each side so the cursor
    /// fits after the last character of a full row.
    public var body: Rect
    public var hints: Rect?
    public var status: Rect

    public init(size: Size) {
        let area = Rect(size: size)
        let showsHints = size.height >= 10
        let rows = area.split(.vertical, [
            .length(1), .length(1), .length(1), .fill, .length(showsHints ? 1 : 0), .length(1),
        ])
        heading = rows[0]
        title = rows[1]
        separator = rows[2]
        body = rows[3].inset(horizontal: 1)
        hints = showsHints ? rows[4] : nil
        status = rows[5]
    }

    /// Where the title's text starts (after the `Title` label).
    public var titleField: Rect {
        Rect(x: title.x + 8, y: title.y, width: title.width - 9, height: 1)
    }

    /// The width body text wraps at.
    public var wrapWidth: Int { max(1, body.width - 1) }
}

extension AppState {
    public var listLayout: ListLayout {
        ListLayout(size: size, showsPrompt: prompt != nil || !list.query.search.isEmpty)
    }

    /// How many rows the list shows now.
    public var visibleRows: Int { max(1, listLayout.list.height) }

    public var editorLayout: EditorLayout { EditorLayout(size: size) }
}
