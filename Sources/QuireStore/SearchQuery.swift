/// Turns what a person types into an FTS5 query: every word must match, each as a prefix.
///
/// Words are split the way the index's `unicode61` tokenizer splits them (letters and digits
/// make words; everything else separates), and each is quoted, so no input can be read as FTS5
/// syntax (`AND`, `NEAR`, `"`, `*`, `:` are just text).
public enum SearchQuery {
    /// The FTS5 MATCH expression, or nil when the text holds no words.
    public static func match(_ text: String) -> String? {
        let words = self.words(text)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// The words of `text`, lowercased.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
