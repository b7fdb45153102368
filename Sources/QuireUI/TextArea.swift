import TerminalUI

/// A multi-line text input with word wrap: the editor's body and the resolve screen's merged body,
/// which share its keys (`edit`) and its drawing (`render`).
///
/// Text is kept as logical lines; what the screen shows are visual rows made by wrapping each
/// line at the view's width. Cursor movement up and down and scrolling work in visual rows, the
/// way a person sees the text.
///
/// Nothing is laid out beyond what is shown. The first row on screen is kept as a line and a row
/// of it (`top`), not as a count of rows from the start of the text, so drawing, scrolling and
/// moving wrap only the lines they pass, starting there: opening a megabyte at its end wraps a
/// screenful. A line stays the slice of the text it was read from until an edit touches it, so
/// opening does not split a megabyte into characters either. A key costs the length of its line
/// plus a screenful, whatever the size of the text.
public struct TextArea: Hashable, Sendable {
    /// A visual row named by its place in the text: a logical line and one of the rows it wraps
    /// to (at the width last used).
    public struct RowPlace: Hashable, Sendable, Comparable {
        public var line: Int
        public var row: Int

        public static func < (left: RowPlace, right: RowPlace) -> Bool {
            (left.line, left.row) < (right.line, right.row)
        }
    }

    private var lines: [LineText]
    /// The UTF-8 size of `text`, kept as lines change, so that "did anything change?" is cheap.
    public private(set) var utf8Count: Int
    /// The cursor's logical line and the character index in it.
    public private(set) var line: Int
    public private(set) var column: Int
    /// The first visual row shown.
    public private(set) var top = RowPlace(line: 0, row: 0)
    /// Whether any edit changed the text since it was made: until one does, it still is the
    /// text it was made from, and comparing a megabyte with itself on every frame is skipped.
    private var edited = false
    /// The screen column that up/down movement tries to keep.
    private var goalX: Int?

    public init(_ text: String = "") {
        lines = LineText.lines(of: text)
        utf8Count = text.utf8.count
        line = 0
        column = 0
    }

    public var text: String {
        var result = ""
        result.reserveCapacity(utf8Count)
        for (index, text) in lines.enumerated() {
            if index > 0 { result.append("\n") }
            text.append(to: &result)
        }
        return result
    }

    /// How many logical lines the text has (at least one).
    public var lineCount: Int { lines.count }

    /// The characters of logical line `index`.
    public func characters(inLine index: Int) -> [Character] { lines[index].characters }

    /// Whether the text differs from `other`; cheap while their sizes differ, and while nothing
    /// was edited (`original` says `other` is the text this area was made from).
    public func differs(from other: String, original: Bool = false) -> Bool {
        if original && !edited { return false }
        return utf8Count != other.utf8.count || text != other
    }

    public static func == (left: TextArea, right: TextArea) -> Bool {
        left.line == right.line && left.column == right.column && left.top == right.top
            && left.goalX == right.goalX && left.utf8Count == right.utf8Count && left.lines == right.lines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(top)
    }

    // MARK: - Editing

    public mutating func insert(_ character: Character) {
        edited = true
        if character == "\n" || character == "\r\n" || character == "\r" {
            newline()
            return
        }
        let column = self.column
        change(line) { $0.insert(character, at: column) }
        utf8Count += character.utf8.count
        self.column += 1
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
        let column = self.column
        let rest = change(line) { characters in
            let rest = Array(characters[column...])
            characters.replaceSubrange(column..., with: pieces[0])
            return rest
        }
        guard pieces.count > 1 else {
            self.column += pieces[0].count
            change(line) { $0 += rest }
            return
        }
        let last = pieces[pieces.count - 1]
        lines.insert(contentsOf: pieces[1...].map { LineText.characters($0) }, at: line + 1)
        line += pieces.count - 1
        self.column = last.count
        change(line) { $0 += rest }
    }

    public mutating func newline() {
        edited = true
        let column = self.column
        let rest = change(line) { characters in
            let rest = Array(characters[column...])
            characters.removeSubrange(column...)
            return rest
        }
        lines.insert(.characters(rest), at: line + 1)
        utf8Count += 1
        line += 1
        self.column = 0
        goalX = nil
    }

    public mutating func backspace() {
        edited = true
        goalX = nil
        if column > 0 {
            let column = self.column
            utf8Count -= change(line) { $0.remove(at: column - 1) }.utf8.count
            self.column -= 1
        } else if line > 0 {
            let joined = lines.remove(at: line).characters
            utf8Count -= 1
            line -= 1
            column = change(line) { characters in
                defer { characters += joined }
                return characters.count
            }
        }
    }

    public mutating func deleteForward() {
        edited = true
        goalX = nil
        if column < length(ofLine: line) {
            let column = self.column
            utf8Count -= change(line) { $0.remove(at: column) }.utf8.count
        } else if line + 1 < lines.count {
            let next = lines.remove(at: line + 1).characters
            utf8Count -= 1
            change(line) { $0 += next }
        }
    }

    /// Deletes from the cursor to the end of its line; at the end of a line, joins the next
    /// one (as Ctrl-K does in Emacs and readline).
    public mutating func killToLineEnd() {
        edited = true
        goalX = nil
        guard column < length(ofLine: line) else {
            deleteForward()
            return
        }
        let column = self.column
        utf8Count -= change(line) { characters in
            defer { characters.removeSubrange(column...) }
            return characters[column...].reduce(0) { $0 + $1.utf8.count }
        }
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
        let column = self.column
        let (start, bytes) = change(line) { characters in
            let start = TextField.wordStart(before: column, in: characters)
            let bytes = characters[start..<column].reduce(0) { $0 + $1.utf8.count }
            characters.removeSubrange(start..<column)
            return (start, bytes)
        }
        utf8Count -= bytes
        self.column = start
    }

    // MARK: - Moving

    public mutating func moveLeft() {
        goalX = nil
        if column > 0 {
            column -= 1
        } else if line > 0 {
            line -= 1
            column = length(ofLine: line)
        }
    }

    public mutating func moveRight() {
        goalX = nil
        if column < length(ofLine: line) {
            column += 1
        } else if line + 1 < lines.count {
            line += 1
            column = 0
        }
    }

    /// To the start of the visual row the cursor is on.
    public mutating func moveToRowStart(width: Int) {
        goalX = nil
        let rows = TextArea.rows(of: lines[line].characters, width: width)
        column = rows[rowIndex(in: rows)].lowerBound
    }

    /// To the end of the visual row the cursor is on (before a wrapped row's trailing space).
    public mutating func moveToRowEnd(width: Int) {
        goalX = nil
        let rows = TextArea.rows(of: lines[line].characters, width: width)
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
        column = length(ofLine: line)
        goalX = nil
    }

    /// Moves by `count` visual rows (negative is up), keeping the screen column where it can.
    public mutating func moveVertically(by count: Int, width: Int) {
        let current = cursorPlace(width: width)
        let x = goalX ?? current.x
        let target = place(current.place, movedBy: count, width: width)
        let characters = lines[target.line].characters
        let rows = TextArea.rows(of: characters, width: width)
        line = target.line
        column = TextArea.index(
            atX: x, in: characters, range: rows[target.row], isLastRow: target.row == rows.count - 1)
        goalX = x
    }

    // MARK: - Layout

    /// One visual row: a logical line and the character range of it shown on the row.
    public struct VisualRow: Hashable, Sendable {
        public var line: Int
        public var range: Range<Int>
    }

    /// Every visual row of the text at a width: a wrap of the whole text, which nothing on
    /// screen needs (it is what tests compare with).
    public func visualRows(width: Int) -> [VisualRow] {
        var result: [VisualRow] = []
        for (index, text) in lines.enumerated() {
            for range in WordWrap.rows(text.characters, width: width) {
                result.append(VisualRow(line: index, range: range))
            }
        }
        return result
    }

    /// The cursor's visual row and its screen column in that row.
    public func cursorPlace(width: Int) -> (place: RowPlace, x: Int) {
        let characters = lines[line].characters
        let rows = TextArea.rows(of: characters, width: width)
        let index = rowIndex(in: rows)
        let x = String(characters[rows[index].lowerBound..<column]).displayWidth
        return (RowPlace(line: line, row: index), x)
    }

    /// Whether the cursor is on the text's first visual row (Up leaves the text from there).
    public func isOnFirstRow(width: Int) -> Bool {
        line == 0 && cursorPlace(width: width).place.row == 0
    }

    /// The cursor's visual row counted from the start of the text, and its column: this wraps
    /// every line above the cursor, which is what a small text or a test can afford.
    public func cursorPosition(width: Int) -> Point {
        let cursor = cursorPlace(width: width)
        let above = (0..<line).reduce(0) { $0 + rowCount(ofLine: $1, width: width) }
        return Point(x: cursor.x, y: above + cursor.place.row)
    }

    /// The rows a line wraps to. A line that surely fits (no character takes more than two
    /// cells) is one row without wrapping it.
    static func rows(of characters: [Character], width: Int) -> [Range<Int>] {
        if characters.count * 2 <= width { return [0..<characters.count] }
        return WordWrap.rows(characters, width: width)
    }

    /// How many visual rows line `index` wraps to; a line that surely fits one row is not split
    /// into characters to say so.
    private func rowCount(ofLine index: Int, width: Int) -> Int {
        if lines[index].surelyFits(width: width) { return 1 }
        return TextArea.rows(of: lines[index].characters, width: width).count
    }

    /// The row `delta` rows below `start` (above when negative), stopping at the text's first
    /// and last rows; wraps only the lines it passes.
    private func place(_ start: RowPlace, movedBy delta: Int, width: Int) -> RowPlace {
        var place = clamped(start, width: width)
        var remaining = delta
        while remaining < 0 {
            if place.row + remaining >= 0 {
                place.row += remaining
                return place
            }
            guard place.line > 0 else { return RowPlace(line: 0, row: 0) }
            remaining += place.row + 1
            place.line -= 1
            place.row = rowCount(ofLine: place.line, width: width) - 1
        }
        while remaining > 0 {
            let count = rowCount(ofLine: place.line, width: width)
            if place.row + remaining < count {
                place.row += remaining
                return place
            }
            guard place.line + 1 < lines.count else { return RowPlace(line: place.line, row: count - 1) }
            remaining -= count - place.row
            place.line += 1
            place.row = 0
        }
        return place
    }

    /// How many rows lie from `start` down to `end` (`end` not before `start`), counted no
    /// further than `limit`: beyond it the answer is some number at least `limit`.
    private func rows(from start: RowPlace, to end: RowPlace, limit: Int, width: Int) -> Int {
        if start.line == end.line { return end.row - start.row }
        var count = rowCount(ofLine: start.line, width: width) - start.row
        var index = start.line + 1
        while index < end.line, count < limit {
            count += rowCount(ofLine: index, width: width)
            index += 1
        }
        return count + end.row
    }

    /// A place that exists in the text as it is now. A line that wraps to fewer rows than it
    /// did (an edit, a wider view) hands the rows it lost on to the lines after it, so the view
    /// stays where it was counted in rows; a line that has gone is the text's last.
    private func clamped(_ place: RowPlace, width: Int) -> RowPlace {
        guard place.line < lines.count else {
            let last = lines.count - 1
            return RowPlace(line: last, row: rowCount(ofLine: last, width: width) - 1)
        }
        let start = RowPlace(line: max(0, place.line), row: 0)
        if place.row < rowCount(ofLine: start.line, width: width) {
            return RowPlace(line: start.line, row: max(0, place.row))
        }
        return self.place(start, movedBy: place.row, width: width)
    }

    /// The width text wraps at in an area: one cell narrower, so the cursor fits after the last
    /// character of a full row.
    public static func wrapWidth(in area: Rect) -> Int { max(1, area.width - 1) }

    /// Scrolls as little as possible so the cursor's row is inside `height` visible rows.
    public mutating func scrollToCursor(width: Int, height: Int) {
        guard height > 0 else { return }
        let cursor = cursorPlace(width: width).place
        top = clamped(top, width: width)
        if cursor < top {
            top = cursor
        } else if rows(from: top, to: cursor, limit: height, width: width) >= height {
            top = place(cursor, movedBy: -(height - 1), width: width)
        }
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

    /// Draws the rows from `top` down into `area`; the cursor's place there, or nil when it is
    /// scrolled out of view.
    public func render(into buffer: inout Buffer, area: Rect) -> Point? {
        let width = TextArea.wrapWidth(in: area)
        let start = clamped(top, width: width)
        var cursor: Point?
        var y = 0
        var index = start.line
        var firstRow = start.row
        while y < area.height, index < lines.count {
            let characters = lines[index].characters
            let rows = TextArea.rows(of: characters, width: width)
            let cursorRow = index == line ? rowIndex(in: rows) : nil
            for row in firstRow..<rows.count where y < area.height {
                let range = rows[row]
                buffer.put(String(characters[range]), x: area.x, y: area.y + y, maxWidth: area.width)
                if row == cursorRow {
                    let x = String(characters[range.lowerBound..<column]).displayWidth
                    cursor = Point(x: area.x + x, y: area.y + y)
                }
                y += 1
            }
            firstRow = 0
            index += 1
        }
        return cursor
    }

    // MARK: - Helpers

    /// The number of characters in line `index`; the cursor's line is split into characters
    /// for the keys that follow.
    private mutating func length(ofLine index: Int) -> Int {
        change(index) { $0.count }
    }

    /// Runs `body` on the characters of line `index`, splitting a slice first; the array is
    /// changed in place, not copied.
    private mutating func change<Result>(_ index: Int, _ body: (inout [Character]) -> Result) -> Result {
        var characters = lines[index].characters
        lines[index] = .characters([])
        defer { lines[index] = .characters(characters) }
        return body(&characters)
    }

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
