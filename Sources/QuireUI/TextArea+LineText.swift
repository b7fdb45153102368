/// One logical line of a `TextArea`: the slice of the text the area was made from, until an
/// edit touches the line and it becomes an array of characters.
///
/// Splitting a megabyte into characters (grapheme clusters) is most of what opening it would
/// cost; a slice is found by looking for line feeds in the UTF-8 bytes, and a line is split
/// only when it is shown or edited.
enum LineText: Sendable, Equatable {
    case slice(Substring)
    case characters([Character])

    /// The lines of `text`, split where a `Character` is a line feed: at every LF byte except
    /// the one of a CRLF, which is one character and stays in its line.
    static func lines(of text: String) -> [LineText] {
        var result: [LineText] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        var afterReturn = false
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0A && !afterReturn {
                result.append(.slice(text[start..<index]))
                start = utf8.index(after: index)
            }
            afterReturn = byte == 0x0D
            utf8.formIndex(after: &index)
        }
        result.append(.slice(text[start...]))
        return result
    }

    var characters: [Character] {
        switch self {
        case .slice(let slice): Array(slice)
        case .characters(let characters): characters
        }
    }

    /// True when the line takes one row at `width` for sure, read from its size alone: a
    /// character is at least one UTF-8 byte and at most two cells, and an ASCII one one cell.
    func surelyFits(width: Int) -> Bool {
        switch self {
        case .slice(let slice):
            let bytes = slice.utf8.count
            return bytes * 2 <= width || (bytes <= width && slice.utf8.allSatisfy { $0 < 0x80 })
        case .characters(let characters):
            return characters.count * 2 <= width
        }
    }

    func append(to text: inout String) {
        switch self {
        case .slice(let slice): text.append(contentsOf: slice)
        case .characters(let characters): text.append(contentsOf: characters)
        }
    }

    static func == (left: LineText, right: LineText) -> Bool {
        switch (left, right) {
        case (.slice(let a), .slice(let b)): a == b
        case (.characters(let a), .characters(let b)): a == b
        case (.slice(let a), .characters(let b)), (.characters(let b), .slice(let a)): a.elementsEqual(b)
        }
    }
}
