import QuireCrypto

/// The body of `GET /v1/keyring` and of `PUT /v1/keyring`: the account's key ring (wrapped
/// keys only: the server cannot open it) and its version.
///
/// Versions order the ring's writes: the first `PUT` names version 0 (none yet) and makes
/// version 1; each later one names the version it was made from, and the server refuses it with
/// 409 when another device wrote first, so a passphrase change or a rotation
/// is never lost to a concurrent one.
public struct KeyRingDocument: Codable, Hashable, Sendable {
    /// In a `GET` answer, the stored version; in a `PUT`, the version the ring was made from.
    public var version: Int
    public var keyring: KeyRing

    public init(version: Int, keyring: KeyRing) {
        self.version = version
        self.keyring = keyring
    }
}
