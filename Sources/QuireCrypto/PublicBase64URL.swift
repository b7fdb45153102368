/// base64url without padding, decoded by table lookup, for text that is no secret: the sealed
/// boxes and MACs every pulled item carries, which the server holds and sends as they are.
///
/// libsodium's decoder runs in constant time, which keys need (`Sodium.bytes(base64URL:)` stays
/// theirs) and public bytes do not; it took a fifth of opening a pulled item, and a third of
/// opening a 2 KiB body. This accepts exactly what `sodium_base642bin` accepts for the URL-safe
/// variant without padding and with nothing ignored: only the 64 letters, no length that leaves
/// six bits over, and unused bits zero, so one value has one text.
enum PublicBase64URL {
    /// How many bytes `count` characters decode to; nil for a length no valid text has.
    static func decodedCount(_ count: Int) -> Int? {
        let tail = count % 4
        guard tail != 1 else { return nil }
        return count / 4 * 3 + (tail == 0 ? 0 : tail - 1)
    }

    /// Decodes `text` into the first `decodedCount(text.count)` bytes of `output` (which holds
    /// at least that many); false when `text` is not base64url as above.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard let count = decodedCount(text.count), output.count >= count else { return false }
        return values.withUnsafeBufferPointer { values in
            var written = 0
            var accumulated: UInt32 = 0
            var bits = 0
            for character in text {
                let value = values[Int(character)]
                guard value != invalid else { return false }
                accumulated = accumulated << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8(truncatingIfNeeded: accumulated >> UInt32(bits))
                    written += 1
                }
            }
            return accumulated & (1 << UInt32(bits) - 1) == 0
        }
    }

    private static let invalid: UInt8 = 0xFF

    /// Each byte's value as a base64url letter, `invalid` for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for (value, letter) in alphabet.enumerated() { table[Int(letter)] = UInt8(value) }
        return table
    }()
}
