/// The lines of a Markdown body that are text, not code: what links and task boxes are read
/// from, so that a note about their syntax neither links nor has boxes.
enum MarkdownLines {
    /// The lines (as slices of `bytes`, without their newline) outside fenced code blocks: a
    /// block opens with three or more backticks or tildes and closes with at least as many of
    /// the same, nothing after them; one never closed runs to the end.
    static func outsideCodeBlocks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var fence: (byte: UInt8, length: Int)?
        var lineStart = 0
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = bytes[lineStart..<lineEnd]
            if let marker = Self.fence(line) {
                if let open = fence {
                    if marker.byte == open.byte && marker.length >= open.length && marker.bare { fence = nil }
                } else {
                    fence = (marker.byte, marker.length)
                }
            } else if fence == nil {
                lines.append(line)
            }
            lineStart = lineEnd + 1
        }
        return lines
    }

    /// A code fence line: up to three spaces, then three or more backticks or tildes; `bare`
    /// when only spaces follow (a closing fence has no info string).
    private static func fence(_ line: ArraySlice<UInt8>) -> (byte: UInt8, length: Int, bare: Bool)? {
        let start = line.firstIndex { $0 != UInt8(ascii: " ") } ?? line.endIndex
        guard start - line.startIndex <= 3, start < line.endIndex,
            line[start] == UInt8(ascii: "`") || line[start] == UInt8(ascii: "~")
        else { return nil }
        let byte = line[start]
        let end = line[start...].firstIndex { $0 != byte } ?? line.endIndex
        guard end - start >= 3 else { return nil }
        return (byte, end - start, line[end...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") })
    }
}
