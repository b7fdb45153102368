/// Hand-written JSON for the hot paths: outbox rows, items by the ten thousand, and sync
/// requests and answers by the hundred ops.
///
/// The output is plain RFC 8259 JSON with no whitespace, which any JSON decoder reads;
/// `CompactJSONReader` reads exactly this shape back quickly, and callers fall back to
/// `JSONDecoder` for anything else.
public enum CompactJSON {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Appends a JSON string literal (quotes included). Runs of bytes that need no escape are
    /// copied at once: bodies are long and mostly plain.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(quote)
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < UInt8(ascii: " ") || byte == quote || byte == backslash else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case quote:
                    bytes.append(backslash)
                    bytes.append(quote)
                case backslash:
                    bytes.append(backslash)
                    bytes.append(backslash)
                case UInt8(ascii: "\n"):
                    bytes.append(backslash)
                    bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"):
                    bytes.append(backslash)
                    bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"):
                    bytes.append(backslash)
                    bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    hex.withUTF8Buffer { digits in
                        bytes.append(contentsOf: [
                            backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)],
                            digits[Int(byte & 15)],
                        ])
                    }
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(quote)
    }

    /// Appends a JSON array of strings.
    public static func appendStrings(_ list: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in list.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(text, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends one field value as operations carry it.
    public static func appendValue(_ value: FieldValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: appendRaw("null", to: &bytes)
        case .bool(let flag): flag ? appendRaw("true", to: &bytes) : appendRaw("false", to: &bytes)
        case .string(let text): appendString(text, to: &bytes)
        case .strings(let list): appendStrings(list, to: &bytes)
        case .sha256(let hex):
            appendRaw("{\"sha256\":", to: &bytes)
            appendString(hex, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        case .sealed(let value):
            appendRaw("{\"sealed\":", to: &bytes)
            appendString(value.text, to: &bytes)
            appendRaw(",\"mac\":", to: &bytes)
            appendString(value.mac, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        case .mac(let text):
            appendRaw("{\"mac\":", to: &bytes)
            appendString(text, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends an op's field changes as `{"title":{"from":…,"to":…},…}`, fields in `Field`
    /// order so equal changes give equal text.
    public static func appendFieldChanges(_ changes: [Field: FieldChange], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for field in Field.allCases {
            guard let change = changes[field] else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            appendString(field.rawValue, to: &bytes)
            appendRaw(":{\"from\":", to: &bytes)
            appendValue(change.from, to: &bytes)
            appendRaw(",\"to\":", to: &bytes)
            appendValue(change.to, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends an integer in decimal.
    public static func appendInteger<Number: BinaryInteger>(_ number: Number, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Appends text known to need no escaping (keys, punctuation, literals).
    public static func appendRaw(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
