/// Turns what a person types into FTS5 queries: every word must match, each as a prefix.
///
/// Words are split the way the index's `unicode61` tokenizer splits them (letters and digits
/// make words; everything else separates), and each is quoted, so no input can be read as FTS5
/// syntax (`AND`, `NEAR`, `"`, `*`, `:` are just text).
public enum SearchQuery {
    /// The FTS5 MATCH expression, or nil when the text holds no words.
    public static func match(_ text: String) -> String? {
        let words = self.words(text)
        guard !words.isEmpty else { return nil }
        return phrases(words)
    }

    /// The full-text indexes a search reads: `everything` (title, body and tags) and the small
    /// `titlesAndTags` (migration "v10 title and tag search").
    public enum Index: String, Sendable {
        case everything = "itemSearch"
        case titlesAndTags = "itemHeadSearch"
    }

    /// One tier of the ranking: the index to read and its MATCH expression.
    public struct Tier: Equatable, Sendable {
        public var index: Index
        public var match: String
    }

    /// The ranking of matches, best first, as one query per tier: items whose title holds every
    /// word; then those whose title and tags hold every word between them; then the rest (some
    /// word only in the body). Nil when the text holds no words.
    ///
    /// Why tiers rather than BM25: BM25 scores every match before the best can be known, about
    /// a microsecond each, so a one-letter prefix over a million items takes most of a second.
    /// A tier is a plain full-text query, which the index answers in row order and stops after
    /// the first few hundred; the tiers never overlap, so reading them in turn ranks every match
    /// exactly, at a cost that follows the matches shown rather than the matches that exist.
    /// The first two tiers read the small title-and-tags index: a common word's postings there
    /// are a few per item, not dozens.
    public static func tiers(_ text: String) -> [Tier]? {
        let words = self.words(text)
        guard !words.isEmpty else { return nil }
        let all = phrases(words)
        let inTitle = "{title} : (\(all))"
        return [
            Tier(index: .titlesAndTags, match: inTitle),
            Tier(index: .titlesAndTags, match: "(\(all)) NOT \(inTitle)"),
            Tier(index: .everything, match: "(\(all)) NOT {title tags} : (\(all))"),
        ]
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

    /// Every word quoted as a prefix phrase; FTS5 reads phrases side by side as AND.
    private static func phrases(_ words: [String]) -> String {
        words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
