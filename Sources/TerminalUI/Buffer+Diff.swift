/// One cell that differs from what the terminal shows.
public struct CellUpdate: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cell: Cell

    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

extension Buffer {
    /// The cells that must be drawn to turn `previous` into this buffer, row by row, left to right.
    ///
    /// With no previous buffer or a different size, every cell is an update (a full redraw).
    /// When a wide grapheme is drawn, the next cell is covered by it and left out.
    public func updates(from previous: Buffer?) -> [CellUpdate] {
        var result: [CellUpdate] = []
        let full = previous == nil || previous!.size != size
        for y in 0..<height {
            var x = 0
            while x < width {
                let index = y * width + x
                let cell = cells[index]
                let changed = full || previous!.cells[index] != cell
                if changed {
                    if cell.isContinuation {
                        // The left half carries the grapheme; redraw it if it is not already queued.
                        if x > 0, result.last.map({ $0.x != x - 1 || $0.y != y }) ?? true {
                            result.append(CellUpdate(x: x - 1, y: y, cell: cells[index - 1]))
                        }
                    } else {
                        result.append(CellUpdate(x: x, y: y, cell: cell))
                    }
                }
                x += 1
            }
        }
        return result
    }

    /// Applies updates as a terminal would; the test backend uses this to keep its screen.
    public mutating func apply(_ updates: [CellUpdate]) {
        for update in updates {
            put(
                Character(update.cell.symbol.isEmpty ? " " : update.cell.symbol),
                x: update.x, y: update.y, style: update.cell.style)
        }
    }
}
