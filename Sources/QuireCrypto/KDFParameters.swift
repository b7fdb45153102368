import CSodium

/// How the passphrase's key is derived: Argon2id's passes (`opslimit`) and memory (`memlimit`,
/// bytes), stored in the key ring so every device derives the same key, and so parameters can
/// grow for new passphrases without locking out old key rings.
public struct KDFParameters: Codable, Hashable, Sendable {
    /// The only algorithm format 1 knows; stored so a later one is recognised, not misread.
    public static let argon2id = "argon2id13"

    public var algorithm: String
    public var opsLimit: UInt64
    public var memLimit: UInt64

    public init(opsLimit: UInt64, memLimit: UInt64) {
        self.algorithm = Self.argon2id
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// libsodium's interactive limits (2 passes, 64 MiB): the floor for a real passphrase.
    public static let interactive = KDFParameters(
        opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_interactive()),
        memLimit: UInt64(crypto_pwhash_argon2id_memlimit_interactive()))

    /// Argon2id's smallest limits (1 pass, 8 KiB): for tests only, where speed matters and the
    /// passphrase protects nothing.
    public static let minimum = KDFParameters(
        opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_min()),
        memLimit: UInt64(crypto_pwhash_argon2id_memlimit_min()))

    /// The most a key ring may ask a device for: a server that wrote 4 TiB into a key ring
    /// would otherwise make every device that unlocks it run out of memory.
    public static let ceiling = KDFParameters(opsLimit: 64, memLimit: 1 << 30)

    /// Why these parameters cannot be used, or nil when they can.
    var problem: String? {
        guard algorithm == Self.argon2id else { return "unknown key derivation \"\(algorithm)\"" }
        let minimum = Self.minimum
        guard (minimum.opsLimit...Self.ceiling.opsLimit).contains(opsLimit) else {
            return "Argon2id passes \(opsLimit) out of range \(minimum.opsLimit)-\(Self.ceiling.opsLimit)"
        }
        guard (minimum.memLimit...Self.ceiling.memLimit).contains(memLimit) else {
            return "Argon2id memory \(memLimit) bytes out of range \(minimum.memLimit)-\(Self.ceiling.memLimit)"
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case algorithm
        case opsLimit = "opslimit"
        case memLimit = "memlimit"
    }
}
