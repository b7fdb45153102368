/// A short name for a set of data keys that says nothing about them.
extension DataKeys {
    /// 32 hex digits that differ whenever the keys do (another key id, another key under the same
    /// id): a device records with each item it could not open the fingerprint of the keys it
    /// tried, so it knows which items to read again once it holds other keys. Each key enters
    /// only as a keyed hash of a fixed text under that key, so the fingerprint reveals no key.
    public var fingerprint: String {
        var digests: [UInt8] = []
        for id in ids {
            let key = byID[id]!
            let idBytes = withUnsafeBytes(of: id.bigEndian) { Array($0) }
            digests +=
                idBytes + Sodium.keyedHash(Array("quire data key fingerprint".utf8), key: key.material, count: 16)
        }
        return Sodium.hex(Sodium.hash(digests, count: 16))
    }
}
