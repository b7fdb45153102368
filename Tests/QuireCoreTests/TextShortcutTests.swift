import Testing

@testable import QuireCore

/// The byte-level shortcuts a pulled item's title and fields take give what the walk through
/// characters gives: the same trimmed text, the same refusals, the same order of fields.
@Suite struct TextShortcutTests {
    /// Trimming by walking characters, as it was done for every text before the shortcut.
    func trimmedByCharacters(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    let texts = [
        "", " ", "a", " a", "a ", "\ta\n", "Pulled item 4711", "a\r\n", "\r\na", "a\u{301}", " \u{301}a", "a \u{301}",
        "\n\u{301}", "é b", "日本語 ", "a\u{200B}", "\u{00A0}a\u{00A0}", "a\r\nb", "a\nb", "line\r",
    ]

    @Test func trimmingGivesWhatTheCharacterWalkGives() {
        for text in texts {
            #expect(text.trimmingWhitespace() == trimmedByCharacters(text), "\(text.debugDescription)")
        }
    }

    /// A title is refused when a line break's byte is left after trimming: a CR LF pair too,
    /// which a walk comparing characters with "\n" and "\r" missed ("a\r\nb" was taken).
    @Test func aTitleIsRefusedExactlyWhenALineBreakIsLeftInIt() {
        for text in texts {
            let trimmed = trimmedByCharacters(text)
            let breaks = trimmed.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
            switch Result(catching: { () throws(ValidationError) -> String in try Validation.title(text) }) {
            case .success(let title): #expect(!trimmed.isEmpty && !breaks && title == trimmed)
            case .failure(.emptyTitle): #expect(trimmed.isEmpty)
            case .failure(.multilineTitle): #expect(breaks)
            case .failure(let other): Issue.record("\(text.debugDescription): \(other)")
            }
        }
    }

    @Test func aCRLFInsideATitleIsRefused() {
        #expect(throws: ValidationError.self) { try Validation.title("Buy milk\r\nand bread") }
    }

    @Test func fieldsOrderAndHashByTheirPlaceInAllCases() {
        #expect(Field.allCases.sorted() == Field.allCases)
        #expect(Field.allCases.map(\.position) == Array(Field.allCases.indices))
        #expect(Set(Field.allCases).count == Field.allCases.count)
    }
}
