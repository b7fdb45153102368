import TerminalUI

/// The frame every screen shares: rows of its own at the top, the content, a line of key hints
/// when the terminal is tall enough for one, and the status bar at the bottom.
///
/// Render draws into these areas and update pages by `pageHeight`, so drawing and paging agree
/// on how much one screen shows.
public struct ScreenChrome: Hashable, Sendable {
    /// The screen's own rows above the content (a heading, the search line); empty when none.
    public var header: Rect
    public var content: Rect
    public var hints: Rect?
    public var status: Rect

    /// Terminals at least this tall show a line of key hints above the status bar.
    public static let hintsMinimumHeight = 10

    /// - Parameters:
    ///   - headerRows: rows the screen keeps above its content.
    ///   - hasHints: false for a screen that never shows key hints (help is the list of keys).
    public init(size: Size, headerRows: Int = 0, hasHints: Bool = true) {
        let showsHints = hasHints && size.height >= ScreenChrome.hintsMinimumHeight
        let rows = Rect(size: size).split(
            .vertical,
            [
                .length(headerRows), .fill, .length(showsHints ? 1 : 0), .length(1),
            ])
        header = rows[0]
        content = rows[1]
        hints = showsHints ? rows[2] : nil
        status = rows[3]
    }

    /// How far PgUp and PgDn move: a screen of content less one row, kept in view for context.
    public var pageHeight: Int { ScreenChrome.page(ofHeight: content.height) }

    /// The page step of a view `height` rows tall.
    public static func page(ofHeight height: Int) -> Int { max(1, height - 1) }
}

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
        let chrome = ScreenChrome(size: size, headerRows: showsPrompt ? 1 : 0)
        prompt = showsPrompt ? chrome.header : nil
        hints = chrome.hints
        status = chrome.status
        let main = chrome.content
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

    /// How far PgUp and PgDn move the selection.
    public var pageHeight: Int { ScreenChrome.page(ofHeight: list.height) }
}

/// Where each part of the editor goes.
public struct EditorLayout: Hashable, Sendable {
    public var heading: Rect
    public var title: Rect
    /// The details line: tags, due date, priority (`DetailsLine`).
    public var details: Rect
    public var separator: Rect
    /// The body's text area; one column narrower than the screen on each side so the cursor
    /// fits after the last character of a full row.
    public var body: Rect
    public var hints: Rect?
    public var status: Rect

    public init(size: Size) {
        let chrome = ScreenChrome(size: size, headerRows: 4)
        let header = chrome.header.split(.vertical, [.length(1), .length(1), .length(1), .length(1)])
        heading = header[0]
        title = header[1]
        details = header[2]
        separator = header[3]
        body = chrome.content.inset(horizontal: 1)
        hints = chrome.hints
        status = chrome.status
    }

    /// Where the title's text starts (after the `Title` label).
    public var titleField: Rect { field(in: title) }

    /// Where the details line's text starts (after the `Details` label).
    public var detailsField: Rect { field(in: details) }

    /// A one-line field's text, after its label (`Details` is the longest).
    private func field(in row: Rect) -> Rect {
        Rect(x: row.x + 9, y: row.y, width: max(1, row.width - 10), height: 1)
    }

    /// The width body text wraps at.
    public var wrapWidth: Int { TextArea.wrapWidth(in: body) }
}

extension AppState {
    public var listLayout: ListLayout {
        ListLayout(size: size, showsPrompt: prompt != nil || !list.query.search.isEmpty)
    }

    /// How many rows the list shows now.
    public var visibleRows: Int { max(1, listLayout.list.height) }

    public var editorLayout: EditorLayout { EditorLayout(size: size) }
}
