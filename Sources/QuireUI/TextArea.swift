import TerminalUI

/// A multi-line text input with word wrap: the editor's body and the resolve screen's merged body,
/// which share its keys (`edit`) and its drawing (`render`).
///
/// Text is kept as logical lines of characters; what the screen shows are visual rows made by
/// wrapping each line at the view's width. Cursor movement up and down and scrolling work in
/// visual rows, the way a person sees the text.
public struct TextArea: Hashable, Sendable {
    public private(set) var lines: [[Character]]
    /// The cursor's logical line and the character index in it.
    public private(set) var line: Int
    public private(set) var column: Int
    /// The first visual row shown.
    public private(set) var scroll: Int
    /// The screen column that up/down movement tries to keep.
    private var goalX: Int?

    public init(_ text: String = "") {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        if lines.isEmpty { lines = [[]] }
        line = 0
        column = 0
        scroll = 0
    }

    public var text: String { lines.map { String($0) }.joined(separator: "\n") }

    // MARK: - Editing

    public mutating func insert(_ character: Character) {
        if character == "\n" || character == "\r\n" || character == "\r" {
            newline()
            return
        }
        lines[line].insert(character, at: column)
        column += 1
        goalX = nil
    }

    public mutating func insert(_ text: String) {
        for character in text { insert(character) }
    }

    public mutating func newline() {
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        line += 1
        column = 0
        goalX = nil
    }

    public mutating func backspace() {
        goalX = nil
        if column > 0 {
            lines[line].remove(at: column - 1)
            column -= 1
        } else if line > 0 {
            let joined = lines.remove(at: line)
            line -= 1
            column = lines[line].count
            lines[line] += joined
        }
    }

    public mutating func deleteForward() {
        goalX = nil
        if column < lines[line].count {
            lines[line].remove(at: column)
        } else if line + 1 < lines.count {
            let next = lines.remove(at: line + 1)
            lines[line] += next
        }
    }

    // MARK: - Moving

    public mutating func moveLeft() {
        goalX = nil
        if column > 0 {
            column -= 1
        } else if line > 0 {
            line -= 1
            column = lines[line].count
        }
    }

    public mutating func moveRight() {
        goalX = nil
        if column < lines[line].count {
            column += 1
        } else if line + 1 < lines.count {
            line += 1
            column = 0
        }
    }

    /// To the start of the visual row the cursor is on.
    public mutating func moveToRowStart(width: Int) {
        goalX = nil
        let rows = WordWrap.rows(lines[line], width: width)
        column = rows[rowIndex(in: rows)].lowerBound
    }

    /// To the end of the visual row the cursor is on (before a wrapped row's trailing space).
    public mutating func moveToRowEnd(width: Int) {
        goalX = nil
        let rows = WordWrap.rows(lines[line], width: width)
        let index = rowIndex(in: rows)
        let row = rows[index]
        let isLast = index == rows.count - 1
        column = isLast ? row.upperBound : max(row.lowerBound, row.upperBound - 1)
    }

    public mutating func moveToStart() {
        line = 0
        column = 0
        goalX = nil
    }

    public mutating func moveToEnd() {
        line = lines.count - 1
        column = lines[line].count
        goalX = nil
    }

    /// Moves by `count` visual rows (negative is up), keeping the screen column where it can.
    public mutating func moveVertically(by count: Int, width: Int) {
        let rows = visualRows(width: width)
        let current = cursorRow(in: rows)
        let x = goalX ?? cursorX(rows: rows, row: current)
        let target = min(max(0, current + count), rows.count - 1)
        let row = rows[target]
        line = row.line
        column = TextArea.index(atX: x, in: lines[row.line], range: row.range, isLastRow: isLastRow(rows, target))
        goalX = x
    }

    // MARK: - Layout

    /// One visual row: a logical line and the character range of it shown on the row.
    public struct VisualRow: Hashable, Sendable {
        public var line: Int
        public var range: Range<Int>
    }

    /// Every visual row of the text at a width.
    public func visualRows(width: Int) -> [VisualRow] {
        var result: [VisualRow] = []
        for (index, characters) in lines.enumerated() {
            for range in WordWrap.rows(characters, width: width) {
                result.append(VisualRow(line: index, range: range))
            }
        }
        return result
    }

    /// The cursor's visual row and column at a width.
    public func cursorPosition(width: Int) -> Point {
        let rows = visualRows(width: width)
        let row = cursorRow(in: rows)
        return Point(x: cursorX(rows: rows, row: row), y: row)
    }

    /// The width text wraps at in an area: one cell narrower, so the cursor fits after the last
    /// character of a full row.
    public static func wrapWidth(in area: Rect) -> Int { max(1, area.width - 1) }

    /// Scrolls as little as possible so the cursor's row is inside `height` visible rows.
    public mutating func scrollToCursor(width: Int, height: Int) {
        guard height > 0 else { return }
        let y = cursorPosition(width: width).y
        if y < scroll { scroll = y }
        if y >= scroll + height { scroll = y - height + 1 }
        scroll = max(0, scroll)
    }

    // MARK: - Keys

    /// Applies one key of the editor keymap to the text shown in `area`, then scrolls so the
    /// cursor stays in view. A key that is no command types its character. False (and nothing
    /// changes) for a key that means nothing to a text area, such as Tab: the caller owns those.
    mutating func edit(_ key: Key, _ command: Command?, in area: Rect) -> Bool {
        let width = TextArea.wrapWidth(in: area)
        let page = ScreenChrome.page(ofHeight: area.height)
        switch command {
        case .newline?: newline()
        case .cursorLeft?: moveLeft()
        case .cursorRight?: moveRight()
        case .cursorUp?: moveVertically(by: -1, width: width)
        case .cursorDown?: moveVertically(by: 1, width: width)
        case .cursorHome?: moveToRowStart(width: width)
        case .cursorEnd?: moveToRowEnd(width: width)
        case .cursorPageUp?: moveVertically(by: -page, width: width)
        case .cursorPageDown?: moveVertically(by: page, width: width)
        case .deleteBackward?: backspace()
        case .deleteForward?: deleteForward()
        default:
            guard case .character(let character) = key else { return false }
            insert(character)
        }
        scrollToCursor(width: width, height: area.height)
        return true
    }

    // MARK: - Drawing

    /// Draws the visible rows into `area`; the cursor's place there, or nil when it is scrolled
    /// out of view.
    func render(into buffer: inout Buffer, area: Rect) -> Point? {
        let width = TextArea.wrapWidth(in: area)
        let rows = visualRows(width: width)
        for offset in 0..<max(0, area.height) {
            let index = scroll + offset
            guard index < rows.count else { break }
            let row = rows[index]
            buffer.put(String(lines[row.line][row.range]), x: area.x, y: area.y + offset, maxWidth: area.width)
        }
        let position = cursorPosition(width: width)
        let y = position.y - scroll
        guard y >= 0, y < area.height else { return nil }
        return Point(x: area.x + position.x, y: area.y + y)
    }

    // MARK: - Helpers

    private func rowIndex(in rows: [Range<Int>]) -> Int {
        // The cursor at a wrap point belongs to the next row, except at the very end of the line.
        for (index, row) in rows.enumerated() where column < row.upperBound || index == rows.count - 1 {
            if column >= row.lowerBound { return index }
        }
        return rows.count - 1
    }

    private func cursorRow(in rows: [VisualRow]) -> Int {
        var lastOfLine = 0
        for (index, row) in rows.enumerated() where row.line == line {
            lastOfLine = index
            if column >= row.range.lowerBound && column < row.range.upperBound { return index }
        }
        return lastOfLine
    }

    private func cursorX(rows: [VisualRow], row: Int) -> Int {
        let visual = rows[row]
        return String(lines[visual.line][visual.range.lowerBound..<column]).displayWidth
    }

    private func isLastRow(_ rows: [VisualRow], _ index: Int) -> Bool {
        index == rows.count - 1 || rows[index + 1].line != rows[index].line
    }

    /// The character index on a visual row closest to screen column `x`.
    private static func index(atX x: Int, in characters: [Character], range: Range<Int>, isLastRow: Bool) -> Int {
        var used = 0
        var index = range.lowerBound
        let end = isLastRow ? range.upperBound : max(range.lowerBound, range.upperBound - 1)
        while index < end {
            let w = characters[index].displayWidth
            if used + w > x { break }
            used += w
            index += 1
        }
        return index
    }
}
