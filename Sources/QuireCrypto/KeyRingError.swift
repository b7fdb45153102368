/// Why a key ring could not be used, each with a one-line message a person can act on (never
/// the opaque "error while unsealing" of other tools).
public enum KeyRingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The passphrase's key check differs: another passphrase made this key ring.
    case wrongPassphrase
    /// The recovery key's check differs: it belongs to another key ring.
    case wrongRecoveryKey
    /// No data key has this id (in the key ring, or in the keys a device holds).
    case unknownKeyID(UInt32)
    /// The key ring was written by a later version of Quire.
    case unsupportedFormatVersion(Int)
    /// The key ring is not what this format promises: unreadable JSON, wrong lengths, parameters
    /// out of range, or a wrapped key that fails to open under a secret whose check matched.
    case damaged(String)
    /// Argon2id could not have the memory its parameters ask for.
    case keyDerivationFailed(memoryBytes: UInt64)

    public var description: String {
        switch self {
        case .wrongPassphrase: "wrong passphrase: it does not unlock this account's key ring"
        case .wrongRecoveryKey: "wrong recovery key: it does not unlock this account's key ring"
        case .unknownKeyID(let id): "unknown key id \(id): no data key has this id"
        case .unsupportedFormatVersion(let version):
            "key ring format \(version) is not supported: this version of Quire reads formats up to "
                + "\(KeyRing.newestFormat); update Quire"
        case .damaged(let reason): "the key ring is damaged: \(reason)"
        case .keyDerivationFailed(let bytes):
            "the passphrase's key needs \(bytes >> 20) MiB of memory, which this device could not allocate"
        }
    }
}
