import Foundation
import Testing

@testable import QuireCrypto

/// The key ring: either secret opens every data key, a wrong one is refused as such, a change
/// of passphrase keeps the keys, a rotation keeps the old keys readable.
@Suite struct KeyRingTests {
    let value = TestKeys.json(#"["groceries","home"]"#)

    /// A value sealed with `sealer` opens with `opener`: both hold the same data key.
    func sameKeys(_ sealer: DataKeys, _ opener: DataKeys) throws -> Bool {
        let sealed = FieldCipher.seal(value, item: "item", field: "tags", keys: sealer)
        return try FieldCipher.open(sealed, item: "item", field: "tags", keys: opener) == value
    }

    @Test func thePassphraseAndTheRecoveryKeyOpenTheSameDataKey() throws {
        let new = try KeyRing.create(passphrase: "correct horse", parameters: TestKeys.fast)
        #expect(new.ring.format == 1)
        #expect(new.ring.currentKey == 1)
        #expect(new.unlocked.dataKeys.ids == [1])
        let byPassphrase = try new.ring.unlock(passphrase: "correct horse")
        let byRecovery = try new.ring.unlock(recoveryKey: RecoveryKey(parsing: new.recoveryKey.text))
        #expect(try sameKeys(new.unlocked.dataKeys, byPassphrase.dataKeys))
        #expect(try sameKeys(new.unlocked.dataKeys, byRecovery.dataKeys))
    }

    @Test func survivesItsJSON() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        let json = new.ring.encoded()
        let decoded = try KeyRing.decode(json)
        #expect(decoded == new.ring)
        #expect(decoded.encoded() == json)
        #expect(try sameKeys(new.unlocked.dataKeys, decoded.unlock(passphrase: "pass").dataKeys))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["format", "passphrase", "recovery", "currentKey", "keys"])
        let passphrase = try #require(object["passphrase"] as? [String: Any])
        #expect(Set(passphrase.keys) == ["kdf", "salt", "check", "wrappedKey"])
        let kdf = try #require(passphrase["kdf"] as? [String: Any])
        #expect(kdf["algorithm"] as? String == "argon2id13")
        #expect(kdf["memlimit"] as? Int == Int(TestKeys.fast.memLimit))
    }

    @Test func aWrongPassphraseIsRefusedAsSuch() throws {
        let new = try KeyRing.create(passphrase: "right", parameters: TestKeys.fast)
        #expect(throws: KeyRingError.wrongPassphrase) { try new.ring.unlock(passphrase: "wrong") }
        #expect(throws: KeyRingError.wrongPassphrase) { try new.ring.unlock(passphrase: "Right") }
        #expect(throws: KeyRingError.wrongPassphrase) { try new.ring.unlock(passphrase: "") }
    }

    @Test func anotherRingsRecoveryKeyIsRefusedAsSuch() throws {
        let new = try KeyRing.create(passphrase: "one", parameters: TestKeys.fast)
        let other = try KeyRing.create(passphrase: "one", parameters: TestKeys.fast)
        #expect(throws: KeyRingError.wrongRecoveryKey) { try new.ring.unlock(recoveryKey: other.recoveryKey) }
    }

    /// The key check tells a wrong passphrase (check differs) from damage (check right, the
    /// wrapped key altered).
    @Test func anAlteredWrappedKeyIsDamageNotAWrongPassphrase() throws {
        let new = try KeyRing.create(passphrase: "right", parameters: TestKeys.fast)
        var ring = new.ring
        ring.passphrase.wrappedKey = flipped(ring.passphrase.wrappedKey)
        #expect(
            throws: KeyRingError.damaged(
                "the key wrapped under the passphrase fails to open, though the passphrase is right")
        ) {
            try ring.unlock(passphrase: "right")
        }
        #expect(throws: KeyRingError.wrongPassphrase) { try ring.unlock(passphrase: "wrong") }
        ring = new.ring
        ring.recovery.wrappedKey = flipped(ring.recovery.wrappedKey)
        #expect(
            throws: KeyRingError.damaged(
                "the key wrapped under the recovery key fails to open, though the recovery key is right")
        ) {
            try ring.unlock(recoveryKey: new.recoveryKey)
        }
        ring = new.ring
        ring.keys[0].wrappedKey = flipped(ring.keys[0].wrappedKey)
        #expect(throws: KeyRingError.damaged("data key 1 fails to open under the ring key")) {
            try ring.unlock(passphrase: "right")
        }
        // A data key relabelled with another id is bound to its own.
        ring = new.ring
        ring.keys[0].id = 5
        ring.currentKey = 5
        #expect(throws: KeyRingError.damaged("data key 5 fails to open under the ring key")) {
            try ring.unlock(passphrase: "right")
        }
    }

    @Test func aRingOfALaterFormatIsRefusedBeforeAnyCryptography() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        var object = try #require(try JSONSerialization.jsonObject(with: new.ring.encoded()) as? [String: Any])
        object["format"] = 3
        object["keys"] = "a shape format 2 does not know"
        #expect(throws: KeyRingError.unsupportedFormatVersion(3)) {
            try KeyRing.decode(JSONSerialization.data(withJSONObject: object))
        }
        #expect(throws: KeyRingError.damaged("it is not JSON with a format number")) {
            try KeyRing.decode(Data("{\"keys\": []}".utf8))
        }
        #expect(throws: KeyRingError.damaged("its JSON does not have the fields of format 1")) {
            try KeyRing.decode(Data("{\"format\": 1}".utf8))
        }
    }

    @Test func damagedFieldsAreNamed() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        var ring = new.ring
        ring.passphrase.salt = "not*base64"
        #expect(throws: KeyRingError.damaged("the salt is not base64url")) { try ring.unlock(passphrase: "pass") }
        ring = new.ring
        ring.recovery.check = "AAAA"
        #expect(throws: KeyRingError.damaged("the recovery key check is 3 bytes, not 16")) {
            try ring.unlock(recoveryKey: new.recoveryKey)
        }
        ring = new.ring
        ring.currentKey = 4
        #expect(throws: KeyRingError.damaged("its current data key 4 is not among its keys")) {
            try ring.unlock(passphrase: "pass")
        }
        ring = new.ring
        ring.keys.append(ring.keys[0])
        #expect(throws: KeyRingError.damaged("data key 1 is there twice")) { try ring.unlock(passphrase: "pass") }
        // A server cannot make a device allocate what it likes.
        ring = new.ring
        ring.passphrase.kdf.memLimit = 1 << 40
        #expect(throws: KeyRingError.self) { try ring.unlock(passphrase: "pass") }
        ring.passphrase.kdf = KDFParameters(opsLimit: 1000, memLimit: TestKeys.fast.memLimit)
        #expect(throws: KeyRingError.self) { try ring.unlock(passphrase: "pass") }
        ring.passphrase.kdf = TestKeys.fast
        ring.passphrase.kdf.algorithm = "scrypt"
        #expect(throws: KeyRingError.damaged("unknown key derivation \"scrypt\"")) {
            try ring.unlock(passphrase: "pass")
        }
    }

    @Test func changingThePassphraseKeepsTheDataKeysAndTheRecoveryKey() throws {
        let new = try KeyRing.create(passphrase: "old", parameters: TestKeys.fast)
        let before = FieldCipher.seal(value, item: "item", field: "tags", keys: new.unlocked.dataKeys)
        let unlocked = try new.ring.unlock(passphrase: "old")
        let changed = try new.ring.changingPassphrase(to: "new", parameters: TestKeys.fast, unlocked: unlocked)
        #expect(changed.keys == new.ring.keys)
        #expect(changed.recovery == new.ring.recovery)
        #expect(changed.passphrase.salt != new.ring.passphrase.salt)
        #expect(throws: KeyRingError.wrongPassphrase) { try changed.unlock(passphrase: "old") }
        let reopened = try changed.unlock(passphrase: "new")
        #expect(try FieldCipher.open(before, item: "item", field: "tags", keys: reopened.dataKeys) == value)
        #expect(try sameKeys(new.unlocked.dataKeys, changed.unlock(recoveryKey: new.recoveryKey).dataKeys))
        // The lost passphrase: unlock by the recovery key, then set a new one.
        let recovered = try changed.unlock(recoveryKey: new.recoveryKey)
        let reset = try changed.changingPassphrase(to: "newer", parameters: TestKeys.fast, unlocked: recovered)
        #expect(try sameKeys(new.unlocked.dataKeys, reset.unlock(passphrase: "newer").dataKeys))
    }

    @Test func changingThePassphraseWithAnotherRingsKeysIsRefused() throws {
        let new = try KeyRing.create(passphrase: "one", parameters: TestKeys.fast)
        let other = try KeyRing.create(passphrase: "two", parameters: TestKeys.fast)
        #expect(throws: KeyRingError.damaged("data key 1 fails to open under the ring key")) {
            try new.ring.changingPassphrase(to: "three", parameters: TestKeys.fast, unlocked: other.unlocked)
        }
    }

    @Test func rotationAddsACurrentKeyAndKeepsTheOldOnesReadable() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        let old = FieldCipher.seal(value, item: "item", field: "tags", keys: new.unlocked.dataKeys)
        let (rotated, unlocked) = try new.ring.rotated(unlocked: new.unlocked)
        #expect(rotated.currentKey == 2)
        #expect(rotated.keys.map(\.id) == [1, 2])
        #expect(rotated.keys[0] == new.ring.keys[0])
        #expect(rotated.passphrase == new.ring.passphrase)
        #expect(unlocked.dataKeys.currentID == 2)
        let sealed = FieldCipher.seal(value, item: "item", field: "tags", keys: unlocked.dataKeys)
        #expect(sealed.hasPrefix("v1.2."))
        // Any device that unlocks the rotated ring, by either secret, reads old and new values.
        for keys in [
            try rotated.unlock(passphrase: "pass").dataKeys, try rotated.unlock(recoveryKey: new.recoveryKey).dataKeys,
        ] {
            #expect(keys.ids == [1, 2])
            #expect(try FieldCipher.open(old, item: "item", field: "tags", keys: keys) == value)
            #expect(try FieldCipher.open(sealed, item: "item", field: "tags", keys: keys) == value)
        }
        // A device that kept only the keys from before (a lost one) cannot read the new values.
        #expect(throws: FieldCipherError.unknownKeyID(2)) {
            try FieldCipher.open(sealed, item: "item", field: "tags", keys: new.unlocked.dataKeys)
        }
        let (twice, _) = try rotated.rotated(unlocked: unlocked)
        #expect(twice.keys.map(\.id) == [1, 2, 3])
        #expect(twice.currentKey == 3)
    }

    @Test func aDeviceHoldingOnlyDataKeysLearnsEachRotationsKeyFromTheRing() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        #expect(new.ring.format == 1, "a ring is format 1 until its first rotation")
        let (once, _) = try new.ring.rotated(unlocked: new.unlocked)
        let (twice, unlocked) = try once.rotated(unlocked: once.unlock(passphrase: "pass"))
        #expect(twice.format == 2)
        #expect(twice.keys.map { $0.chain?.from } == [nil, 1, 2])
        // Through its JSON, as a device reads it: key 1 leads to 2, then 3, with no secret.
        let read = try KeyRing.decode(twice.encoded())
        let learned = try read.learning(from: new.unlocked.dataKeys)
        #expect(learned.ids == [1, 2, 3])
        #expect(learned.currentID == 3)
        #expect(try sameKeys(learned, unlocked.dataKeys))
        // Keys that reach nothing new are answered as they are.
        #expect(try read.learning(from: unlocked.dataKeys).ids == [1, 2, 3])
        // Another account's keys learn nothing here.
        let other = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast, random: FixedRandom(seed: 9))
        #expect(try read.learning(from: TestKeys.dataKeys([7])).ids == [7])
        #expect(throws: KeyRingError.damaged("data key 2 fails to open under data key 1")) {
            try read.learning(from: other.unlocked.dataKeys)
        }
        // A chain moved to another key, or altered, is damage, not a key.
        var moved = twice
        moved.keys[2].chain = twice.keys[1].chain
        #expect(throws: KeyRingError.damaged("data key 3 fails to open under data key 1")) {
            try moved.learning(from: new.unlocked.dataKeys)
        }
        var altered = twice
        altered.keys[1].chain?.wrappedKey = flipped(twice.keys[1].chain!.wrappedKey)
        #expect(throws: KeyRingError.damaged("data key 2 fails to open under data key 1")) {
            try altered.learning(from: new.unlocked.dataKeys)
        }
        // Format 1 has no place for a chain; a chain from a key the ring lacks is damage.
        var formatOne = twice
        formatOne.format = 1
        #expect(formatOne.problem == "the key ring is damaged: data key 2 is chained, which format 1 has no place for")
        var dangling = twice
        dangling.keys[1].chain?.from = 9
        #expect(dangling.problem?.contains("chained from 9, which is not another of its keys") == true)
        #expect(twice.problem == nil)
    }

    @Test func dataKeysSurviveTheCredentialsFile() throws {
        let new = try KeyRing.create(passphrase: "pass", parameters: TestKeys.fast)
        let (_, unlocked) = try new.ring.rotated(unlocked: new.unlocked)
        let json = try JSONEncoder().encode(unlocked.dataKeys)
        let decoded = try JSONDecoder().decode(DataKeys.self, from: json)
        #expect(decoded.ids == [1, 2])
        #expect(decoded.currentID == 2)
        #expect(try sameKeys(unlocked.dataKeys, decoded))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DataKeys.self, from: Data(#"{"current": 3, "keys": {"1": "AAAA"}}"#.utf8))
        }
    }

    @Test func errorsSayWhatHappenedInOneLine() {
        let errors: [KeyRingError] = [
            .wrongPassphrase, .wrongRecoveryKey, .unknownKeyID(3), .unsupportedFormatVersion(2), .damaged("x"),
            .keyDerivationFailed(memoryBytes: 64 << 20),
        ]
        for error in errors { #expect(!error.description.contains("\n")) }
        #expect(KeyRingError.wrongPassphrase.description.hasPrefix("wrong passphrase"))
        #expect(KeyRingError.keyDerivationFailed(memoryBytes: 64 << 20).description.contains("64 MiB"))
    }

    /// `text` (base64url) with its first byte's low bit flipped.
    func flipped(_ text: String) -> String {
        var bytes = Sodium.bytes(base64URL: text[...])!
        bytes[0] ^= 1
        return Sodium.base64URL(bytes)
    }
}
