import Foundation
import Testing

@testable import QuireCrypto

/// The recovery key as a person handles it: written down once, typed back later, a typo
/// caught before any cryptography.
@Suite struct RecoveryKeyTests {
    let key = RecoveryKey(random: FixedRandom(seed: 29))

    @Test func isShownAsEightGroupsOfSevenUnambiguousCharacters() {
        let groups = key.text.split(separator: "-")
        #expect(groups.count == 8)
        #expect(groups.allSatisfy { $0.count == 7 })
        #expect(key.text.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ-".contains($0) })
        #expect(RecoveryKey(random: SystemRandom()).text != RecoveryKey(random: SystemRandom()).text)
        // Keys written down must parse in every later version: the text is pinned.
        #expect(key.text == "E0D8F64-9ZW328Y-7E1GY5N-5QZRPY7-FA42W4P-JD71N5W-Q58QQG3-KSRXDAC")
    }

    @Test func parsesBackWhateverTheSpacingCaseOrLookalikes() throws {
        let text = key.text
        let variants = [
            text, text.lowercased(), text.replacingOccurrences(of: "-", with: ""),
            text.replacingOccurrences(of: "-", with: " ") + "\n",
            text.replacingOccurrences(of: "1", with: "l").replacingOccurrences(of: "0", with: "O"),
            text.replacingOccurrences(of: "1", with: "I"),
        ]
        for variant in variants {
            #expect(try RecoveryKey(parsing: variant).text == text, "\(variant)")
        }
    }

    @Test func everySingleCharacterTypoIsCaught() {
        let characters = Array(key.text.filter { $0 != "-" })
        for index in characters.indices {
            var typo = characters
            typo[index] = typo[index] == "7" ? "8" : "7"
            #expect(throws: RecoveryKeyError.typo) { try RecoveryKey(parsing: String(typo)) }
        }
        // Two different neighbours swapped.
        let index = characters.indices.dropLast().first { characters[$0] != characters[$0 + 1] }!
        var swapped = characters
        swapped.swapAt(index, index + 1)
        #expect(throws: RecoveryKeyError.typo) { try RecoveryKey(parsing: String(swapped)) }
    }

    @Test func refusesWhatIsNotARecoveryKey() {
        #expect(throws: RecoveryKeyError.invalidCharacter("U")) { try RecoveryKey(parsing: "U" + key.text.dropFirst()) }
        #expect(throws: RecoveryKeyError.invalidCharacter("é")) { try RecoveryKey(parsing: key.text + "é") }
        #expect(throws: RecoveryKeyError.wrongLength(55)) { try RecoveryKey(parsing: String(key.text.dropLast())) }
        #expect(throws: RecoveryKeyError.wrongLength(0)) { try RecoveryKey(parsing: " - ") }
        #expect(!RecoveryKeyError.wrongLength(3).description.contains("\n"))
    }

    @Test func neverShowsItselfInADescription() {
        #expect("\(key)" == "RecoveryKey(hidden)")
        #expect(!String(reflecting: key).contains(key.text))
    }
}
