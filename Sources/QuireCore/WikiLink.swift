/// A `[[…]]` link in an item's body (SPEC: Links): `[[Title]]`, or `[[ID]]` with the item's
/// full id.
///
/// A person may type a short id too (`[[c672]]`), but it is stored as the full id: the short
/// id a person sees is given by each device on its own (two devices may show the same short id
/// for different items), and a body travels to every device, so a short id kept in a body
/// would link to different items on different devices. The store writes it out when the text
/// is saved (`AppDatabase.bodyLinkingByID`).
public struct WikiLink: Hashable, Sendable {
    /// The text between the brackets, trimmed, as written.
    public let text: String

    public init(text: String) { self.text = text }

    /// What the link is looked up by (see `key(_:)`).
    public var key: String { WikiLink.key(text) }

    /// The key of a title or a link's text: its ASCII letters lowercased, as SQLite's `lower()`
    /// and `COLLATE NOCASE` fold them, so that titles match without regard to case in the store
    /// and in memory alike (tags and projects match the same way). A full id is its own key.
    public static func key(_ text: String) -> String {
        String(decoding: text.trimmingWhitespace().asciiCaseFolded, as: UTF8.self)
    }

    /// Whether the text is a full item id (36 characters, hyphens where a UUID has them).
    public var isID: Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index)
                ? byte == UInt8(ascii: "-")
                : (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
        }
    }

    /// The links of a body, in the order they first appear, each key once.
    ///
    /// A link is `[[` and `]]` on one line around text holding no bracket; blank text is no
    /// link. Brackets inside code (a fenced block opened by three or more backticks or tildes,
    /// or an inline span between equal runs of backticks) are text, as Markdown shows them: a
    /// note about wiki syntax does not link.
    public static func links(in body: String) -> [WikiLink] {
        guard body.utf8.contains(UInt8(ascii: "[")) else { return [] }
        var keys = Set<String>()
        return occurrences(in: Array(body.utf8)).map { WikiLink(text: $0.text) }.filter { keys.insert($0.key).inserted }
    }

    /// The body with every link whose key is `key` written `[[replacement]]`, code left as it
    /// is: what renaming an item does to the bodies that link to it by its old title.
    public static func replacing(key: String, with replacement: String, in body: String) -> String {
        rewriting(body) { $0.key == key ? replacement : nil }
    }

    /// The body with each link outside code written `[[text]]` for the text `spelling` gives
    /// it; a link it gives nil stays as written.
    public static func rewriting(_ body: String, _ spelling: (WikiLink) -> String?) -> String {
        guard body.utf8.contains(UInt8(ascii: "[")) else { return body }
        let bytes = Array(body.utf8)
        let targets = occurrences(in: bytes).compactMap { found in
            spelling(WikiLink(text: found.text)).map { (range: found.range, text: $0) }
        }
        guard !targets.isEmpty else { return body }
        var out: [UInt8] = []
        var from = 0
        for target in targets {
            out += bytes[from..<target.range.lowerBound]
            out += Array("[[\(target.text)]]".utf8)
            from = target.range.upperBound
        }
        out += bytes[from...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The `[[…]]` of one line of text (no newline) outside its inline code spans: where each
    /// sits in the line's UTF-8 bytes and its trimmed text. What a renderer reads in a run of
    /// prose it already knows is outside code blocks.
    public static func occurrences(inLine line: String) -> [(range: Range<Int>, text: String)] {
        guard line.utf8.contains(UInt8(ascii: "[")) else { return [] }
        return occurrences(onLine: Array(line.utf8)[...])
    }

    /// Every `[[…]]` outside code: where it sits in the UTF-8 bytes and its trimmed text.
    static func occurrences(in bytes: [UInt8]) -> [(range: Range<Int>, text: String)] {
        MarkdownLines.outsideCodeBlocks(bytes).flatMap(occurrences(onLine:))
    }

    /// The `[[…]]` of one line outside its inline code spans.
    private static func occurrences(onLine line: ArraySlice<UInt8>) -> [(range: Range<Int>, text: String)] {
        var found: [(range: Range<Int>, text: String)] = []
        let open = UInt8(ascii: "[")
        let close = UInt8(ascii: "]")
        let tick = UInt8(ascii: "`")
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == tick {
                // A code span: a run of n backticks up to the next run of exactly n; a run
                // with no partner is text.
                let run = (line[index...].firstIndex { $0 != tick } ?? line.endIndex) - index
                index = Self.closingRun(of: run, in: line, from: index + run) ?? index + run
                continue
            }
            guard line[index] == open, index + 1 < line.endIndex, line[index + 1] == open else {
                index += 1
                continue
            }
            let end = line[(index + 2)...].firstIndex { $0 == open || $0 == close } ?? line.endIndex
            guard end + 1 < line.endIndex, line[end] == close, line[end + 1] == close else {
                index += 1
                continue
            }
            let text = String(decoding: line[(index + 2)..<end], as: UTF8.self).trimmingWhitespace()
            if !text.isEmpty { found.append((index..<(end + 2), text)) }
            index = end + 2
        }
        return found
    }

    /// Where a run of exactly `run` backticks ends, searching from `start`; nil when none.
    private static func closingRun(of run: Int, in line: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < line.endIndex {
            guard line[index] == UInt8(ascii: "`") else {
                index += 1
                continue
            }
            let length = (line[index...].firstIndex { $0 != UInt8(ascii: "`") } ?? line.endIndex) - index
            if length == run { return index + length }
            index += length
        }
        return nil
    }
}
