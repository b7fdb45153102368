import TerminalUI

/// A multi-line text input with word wrap: the editor's body and the resolve screen's merged body,
/// which share its keys (`edit`) and its drawing (`render`).
///
/// Text is kept as logical lines of characters; what the screen shows are visual rows made by
/// wrapping each line at the view's width. Cursor movement up and down and scrolling work in
/// visual rows, the way a person sees the text.
///
/// A key costs the length of its line plus a screenful, whatever the size of the text: the
/// number of rows each line wraps to is remembered (`rowCounts`) and only the lines an edit
/// touched are wrapped again, and drawing wraps only the lines on screen.
public struct TextArea: Hashable, Sendable {
    public private(set) var lines: [[Character]]
    /// The UTF-8 size of `text`, kept as lines change, so that "did anything change?" is cheap.
    public private(set) var utf8Count: Int
    /// How many visual rows each line wraps to at `rowCountWidth`; -1 where an edit changed the
    /// line since (see `refreshRowCounts`). A cache: equality and hashing ignore it.
    private var rowCounts: [Int]
    private var rowCountWidth = 0
    /// The cursor's logical line and the character index in it.
    public private(set) var line: Int
    public private(set) var column: Int
    /// The first visual row shown.
    public private(set) var scroll: Int
    /// Whether any edit changed the text since it was made: until one does, it still is the
    /// text it was made from, and comparing a megabyte with itself on every frame is skipped.
    private var edited = false
    /// The screen column that up/down movement tries to keep.
    private var goalX: Int?

    public init(_ text: String = "") {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        if lines.isEmpty { lines = [[]] }
        utf8Count = text.utf8.count
        rowCounts = Array(repeating: -1, count: lines.count)
        line = 0
        column = 0
        scroll = 0
    }

    public var text: String { lines.map { String($0) }.joined(separator: "\n") }

    /// Whether the text differs from `other`; cheap while their sizes differ, and while nothing
    /// was edited (`original` says `other` is the text this area was made from).
    public func differs(from other: String, original: Bool = false) -> Bool {
        if original && !edited { return false }
        return utf8Count != other.utf8.count || text != other
    }

    public static func == (left: TextArea, right: TextArea) -> Bool {
        left.line == right.line && left.column == right.column && left.scroll == right.scroll
            && left.goalX == right.goalX && left.lines == right.lines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lines)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(scroll)
    }

    // MARK: - Editing

    public mutating func insert(_ character: Character) {
        edited = true
        if character == "\n" || character == "\r\n" || character == "\r" {
            newline()
            return
        }
        lines[line].insert(character, at: column)
        utf8Count += character.utf8.count
        rowCounts[line] = -1
        column += 1
        goalX = nil
    }

    /// Inserts text at the cursor (a paste) in one splice, whatever its size: each line break
    /// (LF, CRLF or CR) starts a new line, and the cursor ends after the text.
    public mutating func insert(_ text: String) {
        edited = true
        var pieces: [[Character]] = [[]]
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                pieces.append([])
            } else {
                pieces[pieces.count - 1].append(character)
            }
        }
        goalX = nil
        utf8Count += pieces.reduce(pieces.count - 1) { $0 + String($1).utf8.count }
        let rest = Array(lines[line][column...])
        lines[line].replaceSubrange(column..., with: pieces[0])
        rowCounts[line] = -1
        guard pieces.count > 1 else {
            column += pieces[0].count
            lines[line] += rest
            return
        }
        let last = pieces[pieces.count - 1]
        lines.insert(contentsOf: pieces[1...], at: line + 1)
        rowCounts.insert(contentsOf: repeatElement(-1, count: pieces.count - 1), at: line + 1)
        line += pieces.count - 1
        column = last.count
        lines[line] += rest
    }

    public mutating func newline() {
        edited = true
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        utf8Count += 1
        rowCounts[line] = -1
        rowCounts.insert(-1, at: line + 1)
        line += 1
        column = 0
        goalX = nil
    }

    public mutating func backspace() {
        edited = true
        goalX = nil
        if column > 0 {
            utf8Count -= lines[line].remove(at: column - 1).utf8.count
            rowCounts[line] = -1
            column -= 1
        } else if line > 0 {
            let joined = lines.remove(at: line)
            rowCounts.remove(at: line)
            utf8Count -= 1
            line -= 1
            rowCounts[line] = -1
            column = lines[line].count
            lines[line] += joined
        }
    }

    public mutating func deleteForward() {
        edited = true
        goalX = nil
        if column < lines[line].count {
            utf8Count -= lines[line].remove(at: column).utf8.count
        } else if line + 1 < lines.count {
            let next = lines.remove(at: line + 1)
            rowCounts.remove(at: line + 1)
            utf8Count -= 1
            lines[line] += next
        }
        rowCounts[line] = -1
    }

    /// Deletes from the cursor to the end of its line; at the end of a line, joins the next
    /// one (as Ctrl-K does in Emacs and readline).
    public mutating func killToLineEnd() {
        edited = true
        goalX = nil
        guard column < lines[line].count else {
            deleteForward()
            return
        }
        let removed = lines[line][column...]
        utf8Count -= removed.reduce(0) { $0 + $1.utf8.count }
        lines[line].removeSubrange(column...)
        rowCounts[line] = -1
    }

    /// Deletes the word before the cursor and the spaces after it (Ctrl-W); at the start of a
    /// line, joins it to the line above.
    public mutating func deleteWordBackward() {
        edited = true
        goalX = nil
        guard column > 0 else {
            backspace()
            return
        }
        let start = TextField.wordStart(before: column, in: lines[line])
        utf8Count -= lines[line][start..<column].reduce(0) { $0 + $1.utf8.count }
        lines[line].removeSubrange(start..<column)
        column = start
        rowCounts[line] = -1
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
        refreshRowCounts(width: width)
        let current = cursorPosition(width: width)
        let x = goalX ?? current.x
        let target = min(max(0, current.y + count), totalRows(width: width) - 1)
        let (targetLine, firstRow) = lineHolding(row: target, width: width)
        let rows = WordWrap.rows(lines[targetLine], width: width)
        let index = target - firstRow
        line = targetLine
        column = TextArea.index(atX: x, in: lines[line], range: rows[index], isLastRow: index == rows.count - 1)
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
        var y = 0
        for index in 0..<line { y += rowCount(of: index, width: width) }
        let rows = WordWrap.rows(lines[line], width: width)
        let index = rowIndex(in: rows)
        let x = String(lines[line][rows[index].lowerBound..<column]).displayWidth
        return Point(x: x, y: y + index)
    }

    /// How many visual rows line `index` wraps to: remembered, or wrapped now.
    private func rowCount(of index: Int, width: Int) -> Int {
        if width == rowCountWidth, rowCounts[index] >= 0 { return rowCounts[index] }
        return TextArea.rowCount(lines[index], width: width)
    }

    /// How many rows a line wraps to. A line that surely fits (no character takes more than
    /// two cells) is one row without wrapping it: opening a long note must not wrap every
    /// line of it to find where the last one is.
    static func rowCount(_ characters: [Character], width: Int) -> Int {
        if characters.count * 2 <= width { return 1 }
        if characters.count <= width, characters.allSatisfy(\.isASCII) { return 1 }
        return WordWrap.rows(characters, width: width).count
    }

    /// All visual rows at a width.
    private func totalRows(width: Int) -> Int {
        var total = 0
        for index in lines.indices { total += rowCount(of: index, width: width) }
        return total
    }

    /// The line that visual row `row` belongs to, and the visual row where that line starts.
    private func lineHolding(row: Int, width: Int) -> (line: Int, firstRow: Int) {
        var first = 0
        for index in lines.indices {
            let count = rowCount(of: index, width: width)
            if row < first + count { return (index, first) }
            first += count
        }
        return (lines.count - 1, first - rowCount(of: lines.count - 1, width: width))
    }

    /// Wraps again the lines edits changed (all of them when the width changed), so that
    /// the next key finds every count remembered.
    private mutating func refreshRowCounts(width: Int) {
        if width != rowCountWidth {
            rowCountWidth = width
            rowCounts = lines.map { TextArea.rowCount($0, width: width) }
            return
        }
        for index in rowCounts.indices where rowCounts[index] < 0 {
            rowCounts[index] = TextArea.rowCount(lines[index], width: width)
        }
    }

    /// The width text wraps at in an area: one cell narrower, so the cursor fits after the last
    /// character of a full row.
    public static func wrapWidth(in area: Rect) -> Int { max(1, area.width - 1) }

    /// Scrolls as little as possible so the cursor's row is inside `height` visible rows.
    public mutating func scrollToCursor(width: Int, height: Int) {
        guard height > 0 else { return }
        refreshRowCounts(width: width)
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
        case .killLine?: killToLineEnd()
        case .deleteWord?: deleteWordBackward()
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
        var (index, firstRow) = lineHolding(row: scroll, width: width)
        var offset = firstRow - scroll
        while offset < area.height, index < lines.count {
            for range in WordWrap.rows(lines[index], width: width) {
                if offset >= 0 && offset < area.height {
                    buffer.put(String(lines[index][range]), x: area.x, y: area.y + offset, maxWidth: area.width)
                }
                offset += 1
            }
            index += 1
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
