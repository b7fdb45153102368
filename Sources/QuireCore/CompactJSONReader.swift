import Foundation

/// A reader for exactly the JSON `CompactJSON` writes: no whitespace, values that are null,
/// booleans, strings, arrays of strings, `{"sha256":…}`, `{"mac":…}` or
/// `{"sealed":…,"mac":…}`. Each method returns nil as soon
/// as the text leaves that shape, and the caller falls back to a full JSON decoder.
public struct CompactJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `{"field":{"from":V,"to":V},…}`.
    public mutating func fieldChanges() -> [Field: FieldChange]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var changes: [Field: FieldChange] = [:]
        if take(UInt8(ascii: "}")) { return changes }
        repeat {
            guard let name = string(), let field = Field(rawValue: name), changes[field] == nil,
                take(UInt8(ascii: ":")), take(UInt8(ascii: "{")),
                string() == "from", take(UInt8(ascii: ":")), let from = value(), take(UInt8(ascii: ",")),
                string() == "to", take(UInt8(ascii: ":")), let to = value(), take(UInt8(ascii: "}"))
            else { return nil }
            changes[field] = FieldChange(from: from, to: to)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return changes
    }

    public mutating func value() -> FieldValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string().map(FieldValue.string)
        case UInt8(ascii: "n"):
            return literal("null") ? .null : nil
        case UInt8(ascii: "t"):
            return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"):
            return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "["):
            index += 1
            var list: [String] = []
            if take(UInt8(ascii: "]")) { return .strings(list) }
            repeat {
                guard let text = string() else { return nil }
                list.append(text)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? .strings(list) : nil
        case UInt8(ascii: "{"):
            index += 1
            let key = string()
            guard take(UInt8(ascii: ":")), let text = string() else { return nil }
            switch key {
            case "sha256": return take(UInt8(ascii: "}")) ? .sha256(text) : nil
            case "mac": return take(UInt8(ascii: "}")) ? .mac(text) : nil
            case "sealed":
                guard take(UInt8(ascii: ",")), string() == "mac", take(UInt8(ascii: ":")), let mac = string(),
                    take(UInt8(ascii: "}"))
                else { return nil }
                return .sealed(SealedValue(text: text, mac: mac))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A string literal with the escapes the writer uses (`\"`, `\\`, `\n`, `\r`, `\t`,
    /// `\u00XX`); other escapes are left to the full decoder.
    public mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            // The common case: no escapes at all.
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var unescaped = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: unescaped, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                unescaped.append(byte)
                continue
            }
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
            case UInt8(ascii: "n"): unescaped.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): unescaped.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "t"): unescaped.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "u"):
                // Only the control characters the writer escapes (U+0000 to U+001F).
                guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "0"),
                    bytes[index + 1] == UInt8(ascii: "0"),
                    let high = JSONBytes.hexDigit(bytes[index + 2]), let low = JSONBytes.hexDigit(bytes[index + 3]),
                    high < 2
                else { return nil }
                unescaped.append(high << 4 | low)
                index += 4
            default:
                return nil
            }
        }
        return nil
    }

    /// `[E,E,…]`, each element read by `element`; nil as soon as the text leaves that shape.
    public mutating func array<Element>(_ element: (inout CompactJSONReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }

    /// `true` or `false`; nil for anything else.
    public mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// True when every byte has been read.
    public var isAtEnd: Bool { index == bytes.count }

    /// A non-negative decimal integer without sign, fraction or exponent (as the writer
    /// makes); nil otherwise.
    public mutating func integer() -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or exponent means the value is not an integer as written: leave it to the full decoder.
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        return value
    }

    /// Reads `"key":`; false when the next key is another.
    public mutating func key(_ name: String) -> Bool {
        let saved = index
        guard string() == name, take(UInt8(ascii: ":")) else {
            index = saved
            return false
        }
        return true
    }

    public mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    public mutating func literal(_ word: StaticString) -> Bool {
        guard JSONBytes.matches(word, in: bytes, at: index) else { return false }
        index += word.utf8CodeUnitCount
        return true
    }
}
