/// A key ring opened on this device: its data keys, and the ring key that wraps them, held in
/// memory only for as long as the operations that change the ring need it (change passphrase,
/// rotate). A device stores `dataKeys`, never this.
public struct UnlockedKeyRing: Sendable {
    public let dataKeys: DataKeys
    let ringKey: SecretBytes
}

/// What `KeyRing.create` makes: the ring to store on the server, the keys to use now, and the
/// recovery key to show once.
public struct NewKeyRing: Sendable {
    public let ring: KeyRing
    public let unlocked: UnlockedKeyRing
    public let recoveryKey: RecoveryKey
}
