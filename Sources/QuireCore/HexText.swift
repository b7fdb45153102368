/// Bytes as lowercase hex digits, two per byte: how hashes are written everywhere in Quire.
public enum HexText {
    /// Inlinable, so a caller in another module gets it specialized for its own sequence (a
    /// pulled item's body MAC writes one SHA-256 this way).
    @inlinable
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        return digits.withUTF8Buffer { digits in
            var out = [UInt8]()
            out.reserveCapacity(64)
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
