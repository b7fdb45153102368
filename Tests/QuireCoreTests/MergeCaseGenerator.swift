import Foundation

@testable import QuireCore

/// A body as the generator builds it: lines without their newlines, and whether the last one
/// has one. Kept apart from the string so that shrinking can drop whole lines.
struct GeneratedText: Hashable {
    var lines: [String]
    var endsWithNewline: Bool

    /// The same text with no empty last line left without its newline: that line would be
    /// nothing in the string, and an edit after it would bring it back as a blank line.
    var normalized: GeneratedText {
        var copy = self
        while !copy.endsWithNewline, copy.lines.last == "" {
            copy.lines.removeLast()
            copy.endsWithNewline = true
        }
        return copy
    }

    var string: String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }
}

/// One generated three-way merge, and what it must give when the texts say so.
struct MergeCase: Hashable {
    var base: GeneratedText
    var local: GeneratedText
    var remote: GeneratedText
    /// Which side holds every change of the other plus more of its own (built by editing the
    /// other side further): a clean merge must be exactly that side.
    var extending: Diff3.Choice?

    /// The case as one line of Swift that replays it.
    var repro: String {
        "Diff3(base: \(swiftLiteral(base.string)), local: \(swiftLiteral(local.string)), "
            + "remote: \(swiftLiteral(remote.string)))"
    }

    /// Smaller cases: one line fewer in one text, or in all three at once, or a final newline
    /// put back. A failing case is shrunk through these while it still fails.
    var smaller: [MergeCase] {
        var result: [MergeCase] = []
        let texts: [WritableKeyPath<MergeCase, GeneratedText>] = [\.base, \.local, \.remote]
        let longest = texts.map { self[keyPath: $0].lines.count }.max() ?? 0
        for index in 0..<longest {
            var all = self
            for text in texts where all[keyPath: text].lines.indices.contains(index) {
                all[keyPath: text].lines.remove(at: index)
            }
            all.extending = nil
            result.append(all)
        }
        for text in texts {
            for index in self[keyPath: text].lines.indices {
                var copy = self
                copy[keyPath: text].lines.remove(at: index)
                copy.extending = nil
                result.append(copy)
            }
            if !self[keyPath: text].endsWithNewline {
                var copy = self
                copy[keyPath: text].endsWithNewline = true
                copy.extending = nil
                result.append(copy)
            }
        }
        return result
    }

    /// The smallest case found (greedily) that still gives failures.
    func shrunk(whileFailing failures: (MergeCase) -> [String]) -> MergeCase {
        var current = self
        var steps = 0
        while steps < 500, let next = current.smaller.first(where: { !failures($0).isEmpty }) {
            current = next
            steps += 1
        }
        return current
    }
}

/// A Swift string literal for any text: ASCII as written, everything else as `\u{…}` escapes,
/// so that an accented letter and its decomposed form look different in a repro.
func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case "\"": literal += "\\\""
        case "\\": literal += "\\\\"
        case " "..."~": literal.unicodeScalars.append(scalar)
        default: literal += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }
    return literal + "\""
}

/// Random merge cases biased toward what breaks line merges: runs of repeated and blank lines,
/// the same edit on both sides next to one more edit, edits at the first and last line, a
/// missing final newline, CRLF line ends, and a line re-encoded between NFC and NFD.
struct MergeCaseGenerator {
    /// Blank lines twice as likely as any other; `é` in both encodings; one CRLF line.
    static let alphabet = ["", "", "a", "b", "- milk", "x", "\u{E9}t\u{E9}", "e\u{301}te\u{301}", "a\r"]

    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    mutating func line() -> String {
        Self.alphabet.randomElement(using: &random)!
    }

    mutating func text() -> GeneratedText {
        let count = Int.random(in: 0...9, using: &random)
        return GeneratedText(lines: (0..<count).map { _ in line() }, endsWithNewline: !chance(15)).normalized
    }

    /// A position biased toward the first and the last line.
    mutating func position(in count: Int) -> Int {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: 0
        case 1: count
        default: Int.random(in: 0...count, using: &random)
        }
    }

    /// One to three edits: insert, delete, replace, re-encode or switch to CRLF, or drop or
    /// add the final newline.
    mutating func edited(_ text: GeneratedText) -> GeneratedText {
        var text = text
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = position(in: text.lines.count)
            let onLine = min(at, text.lines.count - 1)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2:
                text.lines.insert(line(), at: at)
            case 3...4 where onLine >= 0:
                text.lines.remove(at: onLine)
            case 5...6 where onLine >= 0:
                text.lines[onLine] = line()
            case 7 where onLine >= 0:
                let old = text.lines[onLine]
                let nfc = old.precomposedStringWithCanonicalMapping
                let nfd = old.decomposedStringWithCanonicalMapping
                text.lines[onLine] = old.utf8.elementsEqual(nfc.utf8) ? nfd : nfc
            case 8 where onLine >= 0:
                if !text.lines[onLine].hasSuffix("\r") { text.lines[onLine] += "\r" }
            default:
                text.endsWithNewline.toggle()
            }
            text = text.normalized
        }
        return text
    }

    /// Inserts one to three lines found in no generated text, so that they cannot undo any
    /// earlier change: a side made this way holds every change of the text it was made from.
    mutating func extended(_ text: GeneratedText) -> GeneratedText {
        var text = text
        for serial in 1...Int.random(in: 1...3, using: &random) {
            text.lines.insert("new \(serial)", at: position(in: text.lines.count))
        }
        return text
    }

    /// A case of one of four shapes: independent edits; one side extending the other; a
    /// shared edit with one more edit on each side; the same edit on both sides.
    mutating func next() -> MergeCase {
        let base = text()
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return MergeCase(base: base, local: edited(base), remote: edited(base), extending: nil)
        case 1:
            let shared = edited(base)
            let further = extended(shared)
            return chance(50)
                ? MergeCase(base: base, local: further, remote: shared, extending: .local)
                : MergeCase(base: base, local: shared, remote: further, extending: .remote)
        case 2:
            let shared = edited(base)
            return MergeCase(base: base, local: edited(shared), remote: edited(shared), extending: nil)
        default:
            let same = edited(base)
            return MergeCase(base: base, local: same, remote: same, extending: .local)
        }
    }
}
