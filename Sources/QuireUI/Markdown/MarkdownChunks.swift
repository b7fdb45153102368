/// Where a long Markdown text can be cut into pieces parsed one at a time: so that opening a
/// megabyte note parses and renders only the pieces the screen reaches.
///
/// A clean cut goes before a line that starts in the first column, after a blank line, outside
/// a fenced code block: such a line ends any paragraph, list item or quote before it, so the
/// blocks on either side are the same as in the whole. What can differ: a list split there
/// becomes two lists with the same markers (an ordered one keeps counting from its own number),
/// and a link reference defined in a later piece is not seen by an earlier one.
///
/// Text with no clean cut for a long stretch (a paragraph of thousands of lines, a long tight
/// list) is cut before a line that starts in the first column anyway: the paragraph continues
/// on the next row (where its line starts anyway), without a blank row between. Never before a
/// table row (the rest of the table would lose its header) or a setext underline (`===`, `---`).
public struct MarkdownChunks: Sendable {
    /// Text up to this long is parsed whole by default.
    public static let wholeLimit = 64 * 1024
    /// A piece is at least this long (but ends only where a cut may go).
    public static let pieceSize = 8 * 1024
    /// A piece with no clean cut is cut anyway once it is this long: wrapping a paragraph this
    /// long takes a few milliseconds.
    public static let longestPiece = 16 * 1024

    let bytes: [UInt8]
    /// Text up to this long is parsed whole.
    let wholeLimit: Int

    /// Where the piece starting at `start` ends, and whether it ends at a clean cut (or the
    /// end of the text).
    public struct PieceEnd: Equatable, Sendable {
        public var offset: Int
        public var clean: Bool
    }

    /// The end of the piece that starts at `start`: the first clean cut at least `pieceSize`
    /// bytes on, failing that a forced cut past `longestPiece`, or the end of the text.
    func pieceEnd(from start: Int) -> PieceEnd {
        if start == 0 && bytes.count <= wholeLimit { return PieceEnd(offset: bytes.count, clean: true) }
        var fence: (character: UInt8, length: Int)?
        var previousBlank = false
        var lineStart = start
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = bytes[lineStart..<lineEnd]
            if fence == nil, let first = line.first, !Self.isBlank(first) {
                let length = lineStart - start
                if previousBlank && length >= Self.pieceSize { return PieceEnd(offset: lineStart, clean: true) }
                if length >= Self.longestPiece && Self.mayForceCut(before: line) {
                    return PieceEnd(offset: lineStart, clean: false)
                }
            }
            if let marker = Self.fenceMarker(line) {
                if let open = fence {
                    if marker.character == open.character && marker.length >= open.length && marker.bare {
                        fence = nil
                    }
                } else {
                    fence = (marker.character, marker.length)
                }
            }
            previousBlank = line.allSatisfy(Self.isBlank)
            lineStart = lineEnd + 1
        }
        return PieceEnd(offset: bytes.count, clean: true)
    }

    /// Not a table row, whose table would lose its header, nor a setext underline, which would
    /// become a rule or a paragraph.
    private static func mayForceCut(before line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first, first != UInt8(ascii: "|") else { return false }
        let underline = line.allSatisfy { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "-") || isBlank($0) }
        return !underline
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// A code fence (three or more backticks or tildes, indented at most three spaces): its
    /// character, length, and whether nothing follows it (only such a fence closes one).
    static func fenceMarker(_ line: ArraySlice<UInt8>) -> (character: UInt8, length: Int, bare: Bool)? {
        var index = line.startIndex
        var indent = 0
        while index < line.endIndex && line[index] == UInt8(ascii: " ") && indent < 4 {
            index += 1
            indent += 1
        }
        guard indent < 4, index < line.endIndex else { return nil }
        let character = line[index]
        guard character == UInt8(ascii: "`") || character == UInt8(ascii: "~") else { return nil }
        var length = 0
        while index < line.endIndex && line[index] == character {
            index += 1
            length += 1
        }
        guard length >= 3 else { return nil }
        let rest = line[index...]
        // A backtick fence's info string may not hold a backtick.
        if character == UInt8(ascii: "`") && rest.contains(UInt8(ascii: "`")) { return nil }
        return (character, length, rest.allSatisfy(isBlank))
    }
}
