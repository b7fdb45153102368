import Foundation
import Testing

@testable import QuireCrypto

/// A device records with each item it could not open the fingerprint of the keys it tried, and
/// reads those items again once the fingerprint of the keys it holds differs.
@Suite struct DataKeysFingerprintTests {
    @Test func theSameKeysGiveTheSameFingerprintAfterTheCredentialsFile() throws {
        let keys = TestKeys.dataKeys([1, 2])
        let stored = try JSONDecoder().decode(DataKeys.self, from: JSONEncoder().encode(keys))
        #expect(stored.fingerprint == keys.fingerprint)
        #expect(keys.fingerprint.count == 32 && keys.fingerprint.allSatisfy(\.isHexDigit))
    }

    @Test func anotherKeyIdOrAnotherKeyUnderTheSameIdChangesIt() {
        let first = TestKeys.dataKeys([1])
        #expect(TestKeys.dataKeys([1, 2]).fingerprint != first.fingerprint, "a key learned")
        #expect(TestKeys.dataKeys([1], first: 7).fingerprint != first.fingerprint, "another account's key 1")
        #expect(TestKeys.dataKeys([2]).fingerprint != TestKeys.dataKeys([1], first: 1).fingerprint, "the same bytes")
    }
}
