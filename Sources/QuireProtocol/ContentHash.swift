import Crypto
import QuireCore

/// SHA-256 as the protocol writes it: lowercase hex of the UTF-8 bytes.
///
/// An update may send a long body's `from` as `{"sha256": ContentHash.sha256Hex(oldBody)}`
/// instead of the old text; the server compares it with the hash of the body it holds.
public enum ContentHash {
    /// Lowercase hex SHA-256 of the UTF-8 bytes of `text`.
    public static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// Lowercase hex SHA-256 of raw bytes.
    public static func sha256Hex(bytes: some Sequence<UInt8>) -> String {
        hex(SHA256.hash(data: Array(bytes)))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { HexText.lowercase(bytes) }
}
