/// Breaks text into rows that fit a width, at spaces where possible.
///
/// Works on arrays of characters and returns index ranges, so an editor can map its cursor to
/// screen rows and back; `lines(_:width:)` is the simple form for read-only text.
public enum WordWrap {
    /// The rows of one paragraph (no newlines) as ranges of character indices.
    ///
    /// Greedy: a row ends after the last space that still fits; a word longer than the width is
    /// cut where the width ends. An empty paragraph is one empty row. Every character belongs to
    /// exactly one row, so the ranges cover `0..<characters.count` without gaps.
    public static func rows(_ characters: [Character], width: Int) -> [Range<Int>] {
        guard !characters.isEmpty else { return [0..<0] }
        let width = max(1, width)
        var rows: [Range<Int>] = []
        var start = 0
        var used = 0
        var breakAfter: Int?  // index just past the last space in the current row
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let w = character.displayWidth
            if used + w > width && index > start {
                let end = breakAfter ?? index
                rows.append(start..<end)
                start = end
                used = 0
                breakAfter = nil
                // Re-measure the characters carried over to the new row.
                var carried = start
                while carried < index {
                    used += characters[carried].displayWidth
                    if characters[carried] == " " { breakAfter = carried + 1 }
                    carried += 1
                }
                continue
            }
            used += w
            if character == " " { breakAfter = index + 1 }
            index += 1
        }
        rows.append(start..<characters.count)
        return rows
    }

    /// Wraps text (which may contain newlines) into display rows of at most `width` cells.
    public static func lines(_ text: String, width: Int) -> [String] {
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(paragraph)
            for range in rows(characters, width: width) {
                var row = String(characters[range])
                while row.hasSuffix(" ") { row.removeLast() }
                result.append(row)
            }
        }
        return result
    }
}
