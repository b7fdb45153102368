import CSodium
import Foundation
import Testing

@testable import QuireCrypto

/// What the server compares for conditional writes: the same for the same value in the same
/// place, different anywhere else.
@Suite struct ValueMACTests {
    let keys = TestKeys.dataKeys([1, 2])
    let value = TestKeys.json(#""Buy milk""#)

    @Test func isTheSameForTheSameValueInTheSamePlace() {
        let first = ValueMAC.mac(of: value, item: "item-1", field: "title", keys: keys)
        #expect(first == ValueMAC.mac(of: value, item: "item-1", field: "title", keys: TestKeys.dataKeys([1, 2])))
        #expect(first.hasPrefix("m1.2."))
        #expect(first.count == "m1.2.".count + 22)
    }

    @Test func differsForAnotherItemFieldValueOrKey() throws {
        let mac = ValueMAC.mac(of: value, item: "item-1", field: "title", keys: keys)
        let others = [
            ValueMAC.mac(of: value, item: "item-2", field: "title", keys: keys),
            ValueMAC.mac(of: value, item: "item-1", field: "body", keys: keys),
            ValueMAC.mac(of: TestKeys.json(#""Buy milk!""#), item: "item-1", field: "title", keys: keys),
            try ValueMAC.mac(of: value, item: "item-1", field: "title", keys: keys, keyID: 1),
            // Key id 2 of another account.
            ValueMAC.mac(of: value, item: "item-1", field: "title", keys: TestKeys.dataKeys([2], first: 100)),
            // The lengths keep the item's end and the field's start apart.
            ValueMAC.mac(of: value, item: "item-1t", field: "itle", keys: keys),
        ]
        #expect(Set(others + [mac]).count == others.count + 1)
    }

    @Test func anUnknownKeyIDIsSaidSo() {
        #expect(throws: KeyRingError.unknownKeyID(7)) {
            try ValueMAC.mac(of: value, item: "item-1", field: "title", keys: keys, keyID: 7)
        }
    }

    /// Keyed BLAKE2b by libsodium directly, with the documented subkey and message: the MAC is
    /// what QuireCrypto's documentation says, so a server or another client can rely on it.
    @Test func isKeyedBLAKE2bOfTheDocumentedMessage() {
        var subkey = [UInt8](repeating: 0, count: 32)
        let material = (0..<32).map { UInt8(2 + $0) }
        _ = crypto_kdf_derive_from_key(&subkey, 32, 1, "QuireMAC", material)
        let message: [UInt8] =
            Array("quire.mac".utf8) + [0, 1] + [0, 0, 0, 2] + [0, 0, 0, 6] + Array("item-1".utf8) + [0, 0, 0, 5]
            + Array("title".utf8) + Array(value)
        var digest = [UInt8](repeating: 0, count: 16)
        _ = crypto_generichash(&digest, 16, message, UInt64(message.count), subkey, 32)
        let base64URL = Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(ValueMAC.mac(of: value, item: "item-1", field: "title", keys: keys) == "m1.2." + base64URL)
    }
}
