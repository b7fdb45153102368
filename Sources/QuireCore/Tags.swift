/// Tag lists are sets; Quire keeps them sorted and free of duplicates so that equal sets
/// compare, encode and hash equally everywhere.
public enum Tags {
    /// Trims each tag, drops empty ones and duplicates, and sorts the rest.
    public static func normalize<S: Sequence>(_ tags: S) -> [String] where S.Element == String {
        Array(Set(tags.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty })).sorted()
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines (no Foundation needed).
    public func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
