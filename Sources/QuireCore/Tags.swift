/// Tag lists are sets; Quire keeps them sorted and free of duplicates so that equal sets
/// compare, encode and hash equally everywhere.
public enum Tags {
    /// A tag as a person typed it on the command line, trimmed and without the leading `#`
    /// lists show (`#work` is the tag `work`, as SPEC's filters say).
    public static func typed(_ text: String) -> String {
        var tag = text.trimmingWhitespace()
        if tag.hasPrefix("#") { tag = String(tag.dropFirst()).trimmingWhitespace() }
        return tag
    }

    /// Whether two tags are the same for a filter: without regard to case of the ASCII
    /// letters, as SQLite's `COLLATE NOCASE` compares them, so a list filtered in memory and
    /// one filtered by the store agree.
    public static func same(_ a: String, _ b: String) -> Bool {
        a.asciiCaseFolded == b.asciiCaseFolded
    }

    /// Trims each tag, drops empty ones and duplicates, and sorts the rest.
    public static func normalize<S: Sequence>(_ tags: S) -> [String] where S.Element == String {
        let trimmed = tags.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        // Most items have no tags, or one: no set to build for those.
        guard trimmed.count > 1 else { return trimmed }
        return Array(Set(trimmed)).sorted()
    }
}

extension String {
    /// The UTF-8 bytes with ASCII letters lowercased and every other byte as it is: how SQLite's
    /// `COLLATE NOCASE` compares, which tags and projects match by (SPEC: Filters).
    public var asciiCaseFolded: [UInt8] {
        utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    /// The string without leading and trailing spaces, tabs and newlines (no Foundation needed).
    public func trimmingWhitespace() -> String {
        // Text that neither starts nor ends with one of these bytes has no such character at
        // either end: itself, without walking its characters (every pulled title comes here).
        func isSpaceByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        }
        if let first = utf8.first, let last = utf8.last, !isSpaceByte(first), !isSpaceByte(last) { return self }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
