/// An in-memory grid of cells that views draw into; the backend shows it on the terminal.
///
/// Drawing never fails: text outside the buffer or past a width limit is clipped, a wide
/// grapheme that does not fit becomes a space, and overwriting half of a wide grapheme blanks
/// the other half, so the grid always describes something a terminal can display.
public struct Buffer: Hashable, Sendable {
    public private(set) var size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill, count: size.width * size.height)
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var area: Rect { Rect(size: size) }

    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
        return cells[y * size.width + x]
    }

    // MARK: - Drawing

    /// Writes one grapheme at a position, keeping wide graphemes whole.
    ///
    /// Returns the number of columns used (0 when clipped).
    @discardableResult
    public mutating func put(_ character: Character, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
        let right = min(limit ?? size.width, size.width)
        guard y >= 0, y < size.height, x >= 0, x < right else { return 0 }
        let shown = Buffer.visible(character)
        let width = shown.displayWidth
        if width == 0 { return 0 }
        if width == 2 && x + 1 >= right {
            writeCell(Cell(" ", style: style), x: x, y: y)
            return 1
        }
        writeCell(Cell(String(shown), style: style), x: x, y: y)
        if width == 2 {
            writeCell(.continuation(style), x: x + 1, y: y)
        }
        return width
    }

    /// Writes text on one row from `x`, clipped at `maxWidth` columns (or the buffer edge).
    ///
    /// Returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .normal, maxWidth: Int? = nil) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? size.width
        // Only the bytes that can be drawn are looked at (one a column, the rest is clipped),
        // and the one after them: a mark or selector there would join the last drawn grapheme.
        if text.utf8.prefix(max(0, min(limit, size.width) - x) + 1).allSatisfy(Self.isPrintableASCII) {
            return putPrintableASCII(text, x: x, y: y, style: style, limit: limit)
        }
        var column = x
        for character in text {
            if column >= limit { break }
            let used = put(character, x: column, y: y, style: style, limit: limit)
            if used == 0 && character.displayWidth > 0 { break }
            column += used
        }
        return column
    }

    /// Writes styled spans one after another on one row; returns the column after the last.
    @discardableResult
    public mutating func put(_ line: Line, x: Int, y: Int, maxWidth: Int? = nil) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? size.width
        var column = x
        for span in line.spans {
            guard column < limit else { break }
            column = put(span.text, x: column, y: y, style: span.style, maxWidth: limit - column)
        }
        return column
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                writeCell(cell, x: x, y: y)
            }
        }
    }

    /// Gives every cell of a rectangle a style, keeping its symbol (used for highlighted rows).
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX {
                cells[y * size.width + x].style = style
            }
        }
    }

    // MARK: - Internals

    /// A byte that is a grapheme of one cell drawn as itself: no control to replace, no mark
    /// to join.
    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F
    }

    /// Each ASCII byte as a cell's symbol, made once (only the printable ones are drawn so).
    private static let asciiSymbols: [String] = (0..<0x80).map { String(Unicode.Scalar(UInt8($0))) }

    /// `put(_:x:y:style:maxWidth:)` for text of printable ASCII only: a cell a byte, with no
    /// grapheme to measure. The same cells as the general path, several times faster; most of
    /// every screen is such text.
    private mutating func putPrintableASCII(_ text: String, x: Int, y: Int, style: Style, limit: Int) -> Int {
        let right = min(limit, size.width)
        guard y >= 0, y < size.height, x >= 0 else { return x }
        var column = x
        for byte in text.utf8 {
            guard column < right else { break }
            writeCell(Cell(Self.asciiSymbols[Int(byte)], style: style), x: column, y: y)
            column += 1
        }
        return column
    }

    private mutating func writeCell(_ cell: Cell, x: Int, y: Int) {
        let index = y * size.width + x
        let old = cells[index]
        // Overwriting the right half of a wide grapheme: blank its left half.
        if old.isContinuation, x > 0, !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        // Overwriting the left half of a wide grapheme: blank its right half. Only a wide
        // grapheme is followed by a continuation, so the old symbol is measured only then
        // (measuring every overwritten cell's symbol was a fifth of a frame's drawing).
        if x + 1 < size.width, cells[index + 1].isContinuation, !old.isContinuation, old.symbol.displayWidth == 2 {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Control characters would move the terminal's cursor: show them as something harmless.
    private static func visible(_ character: Character) -> Character {
        guard character.isASCII, let value = character.asciiValue else {
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                (0x80..<0xA0).contains(scalar.value)
            {
                return "?"
            }
            return character
        }
        if value == 9 { return " " }
        if value < 0x20 || value == 0x7F { return "?" }
        return character
    }
}
