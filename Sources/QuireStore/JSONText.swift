import Foundation
import QuireCore

/// The store's JSON columns as text: tags and outbox fields in every row, written with
/// `CompactJSON` and read back quickly, falling back to `JSONDecoder` for anything else.
public enum JSONText {
    /// A JSON array of strings as text.
    public static func strings(_ list: [String]) -> String {
        var bytes = [UInt8]()
        CompactJSON.appendStrings(list, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An op's field changes as a JSON object `{"title":{"from":…,"to":…},…}`, fields in
    /// `Field` order so equal changes give equal text.
    public static func fieldChanges(_ changes: [Field: FieldChange]) -> String {
        var bytes = [UInt8]()
        CompactJSON.appendFieldChanges(changes, to: &bytes)
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
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "["), utf8[utf8.count - 1] == UInt8(ascii: "]") else {
            return nil
        }
        if utf8.count == 2 { return [] }
        var result: [String] = []
        var index = 1
        while index < utf8.count - 1 {
            guard utf8[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < utf8.count && utf8[end] != UInt8(ascii: "\"") {
                if utf8[end] == UInt8(ascii: "\\") { return nil }
                end += 1
            }
            guard end < utf8.count - 1 else { return nil }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self))
            index = end + 1
            if utf8[index] == UInt8(ascii: ",") {
                index += 1
            } else if index != utf8.count - 1 {
                return nil
            }
        }
        return result
    }
}
