import Crypto
import Foundation
import QuireProtocol

/// Bearer tokens: made at random, stored only as their SHA-256, compared in constant time.
enum Tokens {
    /// A new token: `qt_` and 43 characters of base64url (32 random bytes).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "qt_" + text
    }

    /// What the store keeps for a token: lowercase hex SHA-256 of its UTF-8 bytes.
    static func hash(_ token: String) -> String {
        ContentHash.sha256Hex(token)
    }

    /// Compares two digests in time that depends only on their lengths, never on where they
    /// first differ.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// The token of an `Authorization: Bearer TOKEN` header, or nil.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 512 else { return nil }
        return token
    }
}
