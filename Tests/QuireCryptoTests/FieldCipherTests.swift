import CSodium
import Foundation
import Testing

@testable import QuireCrypto

/// A sealed value opens only where it was sealed: its item, its field, its key id, its bytes.
@Suite struct FieldCipherTests {
    let keys = TestKeys.dataKeys([1, 2])
    let value = TestKeys.json(#""Buy milk""#)

    @Test func roundTripsUnderTheCurrentKey() throws {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        #expect(sealed.hasPrefix("v1.2."))
        #expect(try FieldCipher.open(sealed, item: "item-1", field: "title", keys: keys) == value)
        let empty = FieldCipher.seal(Data(), item: "item-1", field: "body", keys: keys)
        #expect(try FieldCipher.open(empty, item: "item-1", field: "body", keys: keys) == Data())
    }

    @Test func eachSealDrawsANewNonce() {
        let first = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        let second = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        #expect(first != second)
    }

    @Test func aFlippedByteAnywhereFailsToOpen() throws {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        let prefix = "v1.2."
        var box = try #require(Sodium.bytes(base64URL: sealed.dropFirst(prefix.count)))
        for index in box.indices {
            box[index] ^= 0x01
            let altered = prefix + Sodium.base64URL(box)
            #expect(throws: FieldCipherError.failedToOpen(keyID: 2)) {
                try FieldCipher.open(altered, item: "item-1", field: "title", keys: keys)
            }
            box[index] ^= 0x01
        }
    }

    @Test func aValueMovedToAnotherItemOrFieldFailsToOpen() {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        #expect(throws: FieldCipherError.failedToOpen(keyID: 2)) {
            try FieldCipher.open(sealed, item: "item-2", field: "title", keys: keys)
        }
        #expect(throws: FieldCipherError.failedToOpen(keyID: 2)) {
            try FieldCipher.open(sealed, item: "item-1", field: "body", keys: keys)
        }
        // The lengths in the associated data keep "ab"+"c" apart from "a"+"bc".
        let joined = FieldCipher.seal(value, item: "ab", field: "c", keys: keys)
        #expect(throws: FieldCipherError.failedToOpen(keyID: 2)) {
            try FieldCipher.open(joined, item: "a", field: "bc", keys: keys)
        }
    }

    @Test func aValueRelabelledWithAnotherKeyIDFailsToOpen() {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        let relabelled = "v1.1." + sealed.dropFirst("v1.2.".count)
        #expect(throws: FieldCipherError.failedToOpen(keyID: 1)) {
            try FieldCipher.open(relabelled, item: "item-1", field: "title", keys: keys)
        }
    }

    @Test func anUnknownKeyIDIsSaidSo() {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        #expect(throws: FieldCipherError.unknownKeyID(2)) {
            try FieldCipher.open(sealed, item: "item-1", field: "title", keys: TestKeys.dataKeys([1]))
        }
        #expect(throws: FieldCipherError.unknownKeyID(9)) {
            try FieldCipher.open("v1.9." + sealed.dropFirst(5), item: "item-1", field: "title", keys: keys)
        }
    }

    @Test func truncatedAndMalformedValuesAreMalformed() throws {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys)
        let box = try #require(Sodium.bytes(base64URL: sealed.dropFirst("v1.2.".count)))
        // Shorter than a nonce and a tag together.
        let short = "v1.2." + Sodium.base64URL(Array(box.prefix(37)))
        #expect(throws: FieldCipherError.malformed("it is truncated: 37 bytes, fewer than a nonce and a tag")) {
            try FieldCipher.open(short, item: "item-1", field: "title", keys: keys)
        }
        // Cut by 2 bytes (3 characters): still base64url and long enough, so the tag refuses it.
        #expect(throws: FieldCipherError.failedToOpen(keyID: 2)) {
            try FieldCipher.open(String(sealed.dropLast(3)), item: "item-1", field: "title", keys: keys)
        }
        for text in [
            "", "v1.2", "x1.2.AAAA", "v.2.AAAA", "v1.02.AAAA", "v1.-2.AAAA", "v1.+2.AAAA", "v01.2.AAAA", "v1.2.AA+A",
            "v1.2.AAAA=",
        ] {
            do {
                _ = try FieldCipher.open(text, item: "item-1", field: "title", keys: keys)
                Issue.record("\(text) opened")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(text): \(error), not malformed")
                    continue
                }
            }
        }
        #expect(throws: FieldCipherError.unsupportedFormatVersion(2)) {
            try FieldCipher.open("v2.2.AAAA", item: "item-1", field: "title", keys: keys)
        }
    }

    /// The documented layout, built here by hand and opened with libsodium directly: the
    /// sealed form and the associated data are what QuireCrypto's documentation says.
    @Test func opensWithLibsodiumAndTheDocumentedAssociatedData() throws {
        let sealed = FieldCipher.seal(value, item: "itém", field: "title", keys: keys)
        let box = try #require(Sodium.bytes(base64URL: sealed.dropFirst("v1.2.".count)))
        var subkey = [UInt8](repeating: 0, count: 32)
        let material = (0..<32).map { UInt8(2 + $0) }
        _ = crypto_kdf_derive_from_key(&subkey, 32, 1, "QuireFld", material)
        let item = Array("itém".utf8)
        let associatedData: [UInt8] =
            Array("quire.field".utf8) + [0, 1] + [0, 0, 0, 2] + [0, 0, 0, UInt8(item.count)] + item + [0, 0, 0, 5]
            + Array("title".utf8)
        var plain = [UInt8](repeating: 0, count: box.count - 40)
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &plain, nil, nil, Array(box[24...]), UInt64(box.count - 24), associatedData, UInt64(associatedData.count),
            Array(box[0..<24]), subkey)
        #expect(status == 0)
        #expect(Data(plain) == value)
    }

    /// Sealed values already stored must open in every later version: this pins the format
    /// byte for byte (a fixed nonce, a known key).
    @Test func theSealedFormIsPinned() throws {
        let sealed = FieldCipher.seal(value, item: "item-1", field: "title", keys: keys, random: FixedRandom(seed: 7))
        #expect(sealed == "v1.2.1xwCy9oR9v5haessTjDm-K_HNfgvzZ3_FcC8eotYzHaNLCwbpPRlrjxM3DRHxe8y50U")
        #expect(try FieldCipher.open(sealed, item: "item-1", field: "title", keys: keys) == value)
    }

    @Test func errorsSayWhatHappenedInOneLine() {
        let errors: [FieldCipherError] = [
            .malformed("it is not three parts separated by dots"), .unsupportedFormatVersion(2), .unknownKeyID(3),
            .failedToOpen(keyID: 1),
        ]
        for error in errors { #expect(!error.description.contains("\n")) }
        #expect(FieldCipherError.unknownKeyID(3).description.contains("key id 3"))
        #expect(FieldCipherError.failedToOpen(keyID: 1).description.contains("altered"))
    }
}
