import Foundation

/// Reads one JSON value straight from its bytes, the way nearly every entry of an export is
/// written, and gives up (nil) on anything else.
///
/// It accepts only text that is valid JSON (RFC 8259) and decodes it as `JSONSerialization`
/// does. What it does not handle for certain (invalid JSON, surrogate escapes, duplicate keys,
/// numbers a `Double` cannot hold, deep nesting) it leaves to `JSONSerialization`, which also
/// says where a syntax error is. So an import reads the same values and reports the same errors
/// with or without it; it is only faster.
public struct JSONValueReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Deeper than this, the reader gives up rather than recurse further.
    public static let maximumDepth = 32

    /// The one value `bytes` holds, with spaces around it allowed; nil when the reader gives up.
    public static func value(of bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = JSONValueReader(bytes: bytes)
        reader.skipSpaces()
        guard let value = reader.value() else { return nil }
        reader.skipSpaces()
        return reader.index == bytes.count ? value : nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func value() -> JSONValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func object() -> JSONValue? {
        guard depth < Self.maximumDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var fields: [String: JSONValue] = [:]
        skipSpaces()
        if take(UInt8(ascii: "}")) { return .object(fields) }
        repeat {
            skipSpaces()
            guard let key = string() else { return nil }
            skipSpaces()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpaces()
            // A repeated key: which one counts is the full decoder's to say.
            guard let value = value(), fields.updateValue(value, forKey: key) == nil else { return nil }
            skipSpaces()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? .object(fields) : nil
    }

    private mutating func array() -> JSONValue? {
        guard depth < Self.maximumDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var values: [JSONValue] = []
        skipSpaces()
        if take(UInt8(ascii: "]")) { return .array(values) }
        repeat {
            skipSpaces()
            guard let value = value() else { return nil }
            values.append(value)
            skipSpaces()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? .array(values) : nil
    }

    /// A string literal. Its text must be valid UTF-8 with no raw control character; escapes
    /// are JSON's, except `\u` of a surrogate (a pair or a lone half), which the reader leaves.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "\\") else { return escapedString(from: start) }
        guard bytes[index] == UInt8(ascii: "\"") else { return nil }
        defer { index += 1 }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The rest of a string that has a backslash in it, from `start`, its first byte.
    private mutating func escapedString(from start: Int) -> String? {
        guard index < bytes.count else { return nil }
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    text.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// The four hex digits after `\u`, as a scalar; nil for a surrogate or a malformed escape.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard index + 4 <= bytes.count else { return nil }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = JSONBytes.hexDigit(byte) else { return nil }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return Unicode.Scalar(code)
    }

    /// A number as JSON writes it (`-`, no leading zero, an optional fraction and exponent);
    /// nil for any other text, or one a `Double` cannot hold.
    private mutating func number() -> JSONValue? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            guard !isDigit(at: index) else { return nil }
        } else {
            guard skipDigits() else { return nil }
        }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }

    /// Skips one or more digits; false when there is none.
    private mutating func skipDigits() -> Bool {
        let start = index
        while isDigit(at: index) { index += 1 }
        return index > start
    }

    private func isDigit(at position: Int) -> Bool {
        position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
    }

    private mutating func skipSpaces() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        guard JSONBytes.matches(word, in: bytes, at: index) else { return false }
        index += word.utf8CodeUnitCount
        return true
    }
}
