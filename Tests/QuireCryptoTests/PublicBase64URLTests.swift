import Testing

@testable import QuireCrypto

/// The table decoder for sealed boxes and MACs takes exactly the texts libsodium's takes, to
/// the same bytes: a server's text that one refused and the other opened would make two
/// devices disagree about which items are readable.
@Suite struct PublicBase64URLTests {
    /// Every text libsodium's decoder is given here, and what the table decoder says of it.
    func agreeWithLibsodium(_ text: [UInt8]) {
        let expected = text.withUnsafeBufferPointer { Sodium.bytes(base64URL: $0) }
        let decoded: [UInt8]? = text.withUnsafeBufferPointer { text in
            guard let count = PublicBase64URL.decodedCount(text.count) else { return nil }
            var output = [UInt8](repeating: 0, count: count)
            let valid = output.withUnsafeMutableBufferPointer { PublicBase64URL.decode(text, into: $0) }
            return valid ? output : nil
        }
        #expect(decoded == expected, "\(String(decoding: text, as: UTF8.self))")
    }

    @Test func decodesWhatLibsodiumEncodesAtEveryLength() {
        let random = FixedRandom(seed: 11)
        for length in 0...70 {
            var bytes = [UInt8](repeating: 0, count: length)
            bytes.withUnsafeMutableBufferPointer { random.fill($0) }
            agreeWithLibsodium(Array(Sodium.base64URL(bytes).utf8))
        }
    }

    /// Other letters, padding, a length that leaves six bits over, unused bits that are not
    /// zero: refused by both.
    @Test func refusesWhatLibsodiumRefuses() {
        let texts = [
            "A", "AAAAA", "AA==", "AAA=", "AB", "AAB", "AAAAAB", "AA+A", "AA/A", "AA A", "AA.A", "AA\u{0}A",
            "AAAAAAAAAAAAAAAAAAAAAA\n", "QQ", "QUI", "QUJD", "_-_-", "zz", "zzz", "ABCé",
        ]
        for text in texts { agreeWithLibsodium(Array(text.utf8)) }
        // Every ASCII byte in each position of a short text.
        for byte in UInt8.min..<0x80 {
            agreeWithLibsodium([byte, UInt8(ascii: "A")])
            agreeWithLibsodium([UInt8(ascii: "A"), UInt8(ascii: "A"), byte])
            agreeWithLibsodium([UInt8(ascii: "A"), byte, UInt8(ascii: "A"), UInt8(ascii: "A")])
        }
    }

    /// Stricter than libsodium in one way: its branch-free lookup reads every byte above 127 as
    /// `_` (through C's signed `char`), so `_A` had 128 other spellings; here none is a letter,
    /// as no Quire device or server writes one.
    @Test func refusesEveryByteAbove127() {
        for byte in UInt8(0x80)...UInt8.max {
            let text = [byte, UInt8(ascii: "A")]
            var output = [UInt8](repeating: 0, count: 1)
            let valid = text.withUnsafeBufferPointer { text in
                output.withUnsafeMutableBufferPointer { PublicBase64URL.decode(text, into: $0) }
            }
            #expect(!valid)
        }
    }
}
