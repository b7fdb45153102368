import Foundation
import QuireCore

/// Hand-written JSON for the hot paths: tags and outbox fields in every row, and items by the
/// ten thousand in `quire list --json` and `quire export`.
///
/// The output is plain RFC 8259 JSON that `JSONDecoder` reads back; the reader side only
/// handles the shapes this writer makes and falls back to `JSONDecoder` for anything else.
public enum JSONText {
    /// Appends a JSON string literal (quotes included). Runs of bytes that need no escape are
    /// copied at once: bodies are long and mostly plain.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(34)
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 32 || byte == 34 || byte == 92 else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case 34: bytes.append(92); bytes.append(34)
                case 92: bytes.append(92); bytes.append(92)
                case 10: bytes.append(92); bytes.append(110)
                case 13: bytes.append(92); bytes.append(114)
                case 9: bytes.append(92); bytes.append(116)
                default:
                    let hex: StaticString = "0123456789abcdef"
                    hex.withUTF8Buffer { digits in
                        bytes.append(contentsOf: [92, 117, 48, 48, digits[Int(byte >> 4)], digits[Int(byte & 15)]])
                    }
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(34)
    }

    /// Appends a JSON array of strings.
    public static func appendStrings(_ list: [String], to bytes: inout [UInt8]) {
        bytes.append(91)
        for (index, text) in list.enumerated() {
            if index > 0 { bytes.append(44) }
            appendString(text, to: &bytes)
        }
        bytes.append(93)
    }

    /// Appends one field value as operations carry it.
    public static func appendValue(_ value: FieldValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: Array("null".utf8))
        case .bool(let flag): bytes.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .string(let text): appendString(text, to: &bytes)
        case .strings(let list): appendStrings(list, to: &bytes)
        case .sha256(let hex):
            bytes.append(contentsOf: Array("{\"sha256\":".utf8))
            appendString(hex, to: &bytes)
            bytes.append(125)
        }
    }

    /// A JSON array of strings as text.
    public static func strings(_ list: [String]) -> String {
        var bytes = [UInt8]()
        appendStrings(list, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An op's field changes as a JSON object `{"title":{"from":…,"to":…},…}`, fields in
    /// `Field` order so equal changes give equal text.
    public static func fieldChanges(_ changes: [Field: FieldChange]) -> String {
        var bytes = [UInt8]()
        bytes.append(123)
        var first = true
        for field in Field.allCases {
            guard let change = changes[field] else { continue }
            if !first { bytes.append(44) }
            first = false
            appendString(field.rawValue, to: &bytes)
            bytes.append(contentsOf: Array(":{\"from\":".utf8))
            appendValue(change.from, to: &bytes)
            bytes.append(contentsOf: Array(",\"to\":".utf8))
            appendValue(change.to, to: &bytes)
            bytes.append(125)
        }
        bytes.append(125)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a JSON array of strings; nil when the text is not one.
    public static func parseStrings(_ text: String) -> [String]? {
        var text = text
        if let fast = text.withUTF8({ parseSimpleStrings($0) }) { return fast }
        return try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// The fast path: an array of strings without escapes, as the writer makes for most tags.
    private static func parseSimpleStrings(_ utf8: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard utf8.count >= 2, utf8[0] == 91, utf8[utf8.count - 1] == 93 else { return nil }
        if utf8.count == 2 { return [] }
        var result: [String] = []
        var index = 1
        while index < utf8.count - 1 {
            guard utf8[index] == 34 else { return nil }
            let start = index + 1
            var end = start
            while end < utf8.count && utf8[end] != 34 {
                if utf8[end] == 92 { return nil }
                end += 1
            }
            guard end < utf8.count - 1 else { return nil }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self))
            index = end + 1
            if utf8[index] == 44 {
                index += 1
            } else if index != utf8.count - 1 {
                return nil
            }
        }
        return result
    }
}
