/// Creating, unlocking, re-wrapping and rotating a key ring. Argon2id runs once per operation
/// that takes a passphrase, never per data key or per item.
extension KeyRing {
    /// A new key ring for `passphrase`: a random ring key and a first data key (id 1), the ring
    /// key wrapped under the passphrase (Argon2id with `parameters`) and under a new recovery key.
    public static func create(
        passphrase: String, parameters: KDFParameters, random: some RandomSource = SystemRandom()
    ) throws(KeyRingError) -> NewKeyRing {
        let dataKey = DataKey(id: 1, material: SecretBytes(random: Sodium.aeadKeyBytes, from: random))
        return try create(
            passphrase: passphrase, parameters: parameters, keeping: DataKeys(currentID: dataKey.id, keys: [dataKey]),
            random: random)
    }

    /// A new key ring around data keys a device already holds, for an account whose server
    /// lost its ring (its database restored from a backup older than the encryption): every
    /// value sealed under them, on the devices and in their queues, still opens, and every
    /// device that holds them reads on without unlocking again. A new ring key, passphrase slot
    /// and recovery key.
    public static func create(
        passphrase: String, parameters: KDFParameters, keeping dataKeys: DataKeys,
        random: some RandomSource = SystemRandom()
    ) throws(KeyRingError) -> NewKeyRing {
        precondition(parameters.problem == nil, "key derivation parameters in range")
        let ringKey = SecretBytes(random: Sodium.aeadKeyBytes, from: random)
        let recoveryKey = RecoveryKey(random: random)
        let ring = KeyRing(
            format: Int(QuireCrypto.formatVersion),
            passphrase: try passphraseSlot(passphrase, parameters: parameters, ringKey: ringKey, random: random),
            recovery: recoverySlot(recoveryKey, ringKey: ringKey, random: random), currentKey: dataKeys.currentID,
            keys: dataKeys.ids.map { wrap(dataKeys.byID[$0]!, under: ringKey, random: random) })
        let unlocked = UnlockedKeyRing(dataKeys: dataKeys, ringKey: ringKey)
        return NewKeyRing(ring: ring, unlocked: unlocked, recoveryKey: recoveryKey)
    }

    /// Every data key, opened with the passphrase. A wrong passphrase is told by the key check,
    /// before anything is opened.
    public func unlock(passphrase: String) throws(KeyRingError) -> UnlockedKeyRing {
        let checked = try CheckedKeyRing(self)
        let kek = try KeyDerivation.key(passphrase: passphrase, salt: checked.salt, parameters: self.passphrase.kdf)
        let ringKey = try Self.unwrapRingKey(
            checked.passphraseWrapped, check: checked.passphraseCheck, under: kek,
            associatedData: AssociatedData.ringKeyUnderPassphrase, refusal: .wrongPassphrase, secret: "passphrase")
        return try Self.unlock(checked, ringKey: ringKey)
    }

    /// Every data key, opened with the recovery key (no key derivation: it is random already).
    public func unlock(recoveryKey: RecoveryKey) throws(KeyRingError) -> UnlockedKeyRing {
        let checked = try CheckedKeyRing(self)
        let ringKey = try Self.unwrapRingKey(
            checked.recoveryWrapped, check: checked.recoveryCheck, under: recoveryKey.bytes,
            associatedData: AssociatedData.ringKeyUnderRecoveryKey, refusal: .wrongRecoveryKey, secret: "recovery key")
        return try Self.unlock(checked, ringKey: ringKey)
    }

    /// This ring with the ring key wrapped under `newPassphrase` (a new salt, `parameters`):
    /// the data keys, their ids and the recovery key stay as they are, so nothing sealed
    /// changes. `unlocked` comes from unlocking this ring (by the old passphrase or the
    /// recovery key).
    public func changingPassphrase(
        to newPassphrase: String, parameters: KDFParameters, unlocked: UnlockedKeyRing,
        random: some RandomSource = SystemRandom()
    ) throws(KeyRingError) -> KeyRing {
        precondition(parameters.problem == nil, "key derivation parameters in range")
        // The ring key must open this ring's data keys: a ring key of another ring would leave a
        // ring whose passphrase opens nothing.
        _ = try Self.unlock(CheckedKeyRing(self), ringKey: unlocked.ringKey)
        var ring = self
        ring.passphrase = try Self.passphraseSlot(
            newPassphrase, parameters: parameters, ringKey: unlocked.ringKey, random: random)
        return ring
    }

    /// This ring with a new random data key, the next id, made current; every older key stays,
    /// so values sealed under it still open. No secret is asked for: the ring key of `unlocked`
    /// wraps the new key, and a device that has only data keys (a lost one) cannot open that.
    /// The new key is also chained: wrapped under a subkey of the key current before it, so
    /// every device holding that key learns the new one from the ring (`learning(from:)`)
    /// without the passphrase, and so does a lost device whose token still fetches the ring.
    public func rotated(
        unlocked: UnlockedKeyRing, random: some RandomSource = SystemRandom()
    ) throws(KeyRingError) -> (ring: KeyRing, unlocked: UnlockedKeyRing) {
        let existing = try Self.unlock(CheckedKeyRing(self), ringKey: unlocked.ringKey)
        let (next, overflow) = (existing.dataKeys.ids.last ?? 0).addingReportingOverflow(1)
        guard !overflow else { throw .damaged("no key id is left for a new data key") }
        let dataKey = DataKey(id: next, material: SecretBytes(random: Sodium.aeadKeyBytes, from: random))
        let previous = existing.dataKeys.current
        var wrapped = Self.wrap(dataKey, under: unlocked.ringKey, random: random)
        let chained = dataKey.material.withUnsafeBytes {
            Sodium.seal(
                $0, associatedData: AssociatedData.chainedKey(id: next, from: previous.id),
                key: Self.chaining(previous), random: random)
        }
        wrapped.chain = ChainedKey(from: previous.id, wrappedKey: Sodium.base64URL(chained))
        var ring = self
        ring.format = Self.newestFormat
        ring.keys.append(wrapped)
        ring.currentKey = next
        let keys = existing.dataKeys.ids.map { existing.dataKeys.byID[$0]! } + [dataKey]
        return (ring, UnlockedKeyRing(dataKeys: DataKeys(currentID: next, keys: keys), ringKey: unlocked.ringKey))
    }

    /// The data keys a device holding `held` reaches in this ring by its chains, without any
    /// secret: each key chained from one it holds (or has just learned) opens, so a device two
    /// rotations behind learns both keys. The ring's current key becomes current when it is
    /// reached; otherwise `held`'s stays (a ring whose rotations predate chains, which only
    /// unlocking opens). A chained key that fails to open under a key the device holds is damage.
    public func learning(from held: DataKeys) throws(KeyRingError) -> DataKeys {
        let checked = try CheckedKeyRing(self)
        var known = held.byID
        var learned = true
        while learned {
            learned = false
            for key in checked.keys where known[key.id] == nil {
                guard let chain = key.chain, let earlier = known[chain.from] else { continue }
                guard
                    let material = Sodium.openKey(
                        chain.wrapped, associatedData: AssociatedData.chainedKey(id: key.id, from: chain.from),
                        key: Self.chaining(earlier))
                else { throw .damaged("data key \(key.id) fails to open under data key \(chain.from)") }
                known[key.id] = DataKey(id: key.id, material: material)
                learned = true
            }
        }
        let current = known[checked.currentKey] == nil ? held.currentID : checked.currentKey
        return DataKeys(currentID: current, keys: Array(known.values))
    }

    /// This ring with the data keys of `kept` (a copy of the account's ring a device took its
    /// keys from) that it lacks put back, and `kept`'s current key current again when it is the
    /// later one; nil when there is nothing to put back, or when the two rings do not share
    /// their common keys byte for byte (not the same ring key: one cannot take the other's).
    ///
    /// What a server restored from a backup made before a rotation needs: its ring lost the
    /// rotated keys the devices hold and have sealed under. Put back, they keep their ids, so
    /// the next rotation makes a key with an id no device holds, a device that never learned
    /// them learns them by their chains, and a device unlocking reads what was sealed under them.
    /// No secret is needed: every part is taken as it was wrapped. This ring's passphrase and
    /// recovery slots stay (a passphrase changed since the backup stays changed).
    public func restoring(keysFrom kept: KeyRing) -> KeyRing? {
        let shared = kept.keys.filter { key in keys.contains { $0.id == key.id } }
        guard shared.allSatisfy({ key in keys.contains { $0 == key } }) else { return nil }
        let missing = kept.keys.filter { key in !keys.contains { $0.id == key.id } }
        guard !missing.isEmpty else { return nil }
        var ring = self
        ring.format = Swift.max(format, kept.format)
        ring.keys = (keys + missing).sorted { $0.id < $1.id }
        if kept.currentKey > currentKey { ring.currentKey = kept.currentKey }
        return ring.problem == nil ? ring : nil
    }

    /// The subkey of a data key that wraps the key chained from it: never the key that seals values.
    private static func chaining(_ key: DataKey) -> SecretBytes {
        Sodium.subkey(of: key.material, id: 1, context: "QuireChn")
    }

    // MARK: - Wrapping

    private static func passphraseSlot(
        _ passphrase: String, parameters: KDFParameters, ringKey: SecretBytes, random: some RandomSource
    ) throws(KeyRingError) -> PassphraseSlot {
        var salt = [UInt8](repeating: 0, count: KeyDerivation.saltBytes)
        salt.withUnsafeMutableBufferPointer { random.fill($0) }
        let kek = try KeyDerivation.key(passphrase: passphrase, salt: salt, parameters: parameters)
        let (check, wrapped) = wrapRingKey(
            ringKey, under: kek, associatedData: AssociatedData.ringKeyUnderPassphrase, random: random)
        return PassphraseSlot(kdf: parameters, salt: Sodium.base64URL(salt), check: check, wrappedKey: wrapped)
    }

    private static func recoverySlot(
        _ recoveryKey: RecoveryKey, ringKey: SecretBytes, random: some RandomSource
    ) -> RecoverySlot {
        let (check, wrapped) = wrapRingKey(
            ringKey, under: recoveryKey.bytes, associatedData: AssociatedData.ringKeyUnderRecoveryKey, random: random)
        return RecoverySlot(check: check, wrappedKey: wrapped)
    }

    /// The unwrapping secret (KEK or recovery key) is only ever used through two subkeys: one
    /// wraps, the other makes the key check.
    private static func subkeys(of secret: SecretBytes) -> (wrapping: SecretBytes, check: SecretBytes) {
        (
            Sodium.subkey(of: secret, id: 1, context: "QuireKEK"),
            Sodium.subkey(of: secret, id: 2, context: "QuireKEK", count: CheckedKeyRing.checkBytes)
        )
    }

    private static func wrapRingKey(
        _ ringKey: SecretBytes, under secret: SecretBytes, associatedData: [UInt8], random: some RandomSource
    ) -> (check: String, wrapped: String) {
        let (wrapping, check) = subkeys(of: secret)
        let wrapped = ringKey.withUnsafeBytes {
            Sodium.seal($0, associatedData: associatedData, key: wrapping, random: random)
        }
        return (check.withUnsafeBytes { Sodium.base64URL(Array($0)) }, Sodium.base64URL(wrapped))
    }

    private static func unwrapRingKey(
        _ wrapped: [UInt8], check: [UInt8], under secret: SecretBytes, associatedData: [UInt8],
        refusal: KeyRingError, secret name: String
    ) throws(KeyRingError) -> SecretBytes {
        let (wrapping, expected) = subkeys(of: secret)
        guard expected.constantTimeEquals(check) else { throw refusal }
        guard let ringKey = Sodium.openKey(wrapped, associatedData: associatedData, key: wrapping) else {
            throw .damaged("the key wrapped under the \(name) fails to open, though the \(name) is right")
        }
        return ringKey
    }

    private static func wrap(_ dataKey: DataKey, under ringKey: SecretBytes, random: some RandomSource)
        -> WrappedDataKey
    {
        let wrapped = dataKey.material.withUnsafeBytes {
            Sodium.seal($0, associatedData: AssociatedData.dataKey(id: dataKey.id), key: ringKey, random: random)
        }
        return WrappedDataKey(id: dataKey.id, wrappedKey: Sodium.base64URL(wrapped))
    }

    /// Every data key of `checked` opened under `ringKey`; one that fails to open (altered, or
    /// given another id) makes the ring damaged.
    private static func unlock(_ checked: CheckedKeyRing, ringKey: SecretBytes) throws(KeyRingError)
        -> UnlockedKeyRing
    {
        var keys: [DataKey] = []
        for (id, wrapped, _) in checked.keys {
            guard let material = Sodium.openKey(wrapped, associatedData: AssociatedData.dataKey(id: id), key: ringKey)
            else { throw .damaged("data key \(id) fails to open under the ring key") }
            keys.append(DataKey(id: id, material: material))
        }
        return UnlockedKeyRing(dataKeys: DataKeys(currentID: checked.currentKey, keys: keys), ringKey: ringKey)
    }
}
