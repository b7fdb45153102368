/// Plain-text forms of a buffer, for snapshot tests and debugging.
extension Buffer {
    /// The buffer as lines of text with trailing spaces removed; wide graphemes appear once
    /// (their continuation cells add nothing), so the text lines up in a monospace view.
    public var text: String {
        lines.joined(separator: "\n")
    }

    /// Each row as text, trailing spaces removed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                line += self[column, row].symbol
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The columns of one row whose cells have `role`, as a string of `^` under them and spaces
    /// elsewhere; lets tests see where highlighting lands without snapshotting escape codes.
    public func roleMask(_ role: Role, row: Int) -> String {
        var mask = ""
        for column in 0..<width {
            mask += self[column, row].style.role == role ? "^" : " "
        }
        while mask.hasSuffix(" ") { mask.removeLast() }
        return mask
    }
}
