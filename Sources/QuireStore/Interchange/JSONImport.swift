import Foundation
import QuireCore

/// Reads a JSON array of items in SPEC.md's shape (what `quire export` writes).
///
/// Only `title` is required; missing fields take their defaults, `rev` and `syncState` are
/// ignored (imported items are local changes). Errors name the entry (1-based) and the field.
public enum JSONImport {
    /// Every entry of an array in memory; a file is read with `ImportReader` instead.
    public static func entries(from data: Data) throws(ImportError) -> [ImportEntry] {
        var reader = ImportReader(JSONElements(data: data), format: .json)
        return try reader.all()
    }

    static func entry(_ object: [String: JSONValue]) throws(ImportError) -> ImportEntry {
        let fields = JSONFields(object)
        let kind = try fields.string("kind").map(FieldParsing.kind) ?? .note
        guard let titleText = try fields.string("title") else { throw ImportError("", "'title' is missing") }
        return ImportEntry(
            id: try fields.string("id").map(FieldParsing.id),
            kind: kind,
            title: try FieldParsing.title(titleText),
            body: try FieldParsing.body(try fields.string("body") ?? ""),
            tags: try fields.strings("tags") ?? [],
            done: try fields.bool("done") ?? false,
            doneAt: try fields.string("doneAt").map { text throws(ImportError) in
                try FieldParsing.time(text, field: "doneAt")
            },
            due: try fields.string("due").flatMap(FieldParsing.due),
            priority: try fields.string("priority").map(FieldParsing.priority) ?? .none,
            pinned: try fields.bool("pinned") ?? false,
            project: try fields.string("project").flatMap(FieldParsing.project),
            recur: try fields.string("recur").flatMap(FieldParsing.recurrence),
            wait: try fields.string("wait").flatMap(FieldParsing.due),
            scheduled: try fields.string("scheduled").flatMap(FieldParsing.due),
            createdAt: try fields.string("createdAt").map { text throws(ImportError) in
                try FieldParsing.time(text, field: "createdAt")
            },
            updatedAt: try fields.string("updatedAt").map { text throws(ImportError) in
                try FieldParsing.time(text, field: "updatedAt")
            },
            deleted: try fields.bool("deleted") ?? false)
    }
}

/// Typed access to a decoded JSON object, with errors that name the field.
struct JSONFields {
    let object: [String: JSONValue]

    init(_ object: [String: JSONValue]) { self.object = object }

    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(ImportError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw ImportError("", "'\(key)' must be a string") }
        return text
    }

    /// Only `true` and `false`: 1 and 0 are refused like any other number.
    func bool(_ key: String) throws(ImportError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw ImportError("", "'\(key)' must be true or false") }
        return flag
    }

    func strings(_ key: String) throws(ImportError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard case .array(let list) = value else { throw ImportError("", "'\(key)' must be a list of strings") }
        var strings: [String] = []
        strings.reserveCapacity(list.count)
        for element in list {
            guard case .string(let text) = element else {
                throw ImportError("", "'\(key)' must be a list of strings")
            }
            strings.append(text)
        }
        return strings
    }

    /// The objects of a list; nil when the field is missing or is not a list of objects only.
    func objects(_ key: String) -> [[String: JSONValue]]? {
        guard case .array(let list)? = object[key] else { return nil }
        var objects: [[String: JSONValue]] = []
        for element in list {
            guard case .object(let fields) = element else { return nil }
            objects.append(fields)
        }
        return objects
    }
}

/// Where a JSON parsing error is, as `line L, column C`, from the character offset Foundation
/// reports ("Invalid value around character 12.").
enum JSONErrors {
    static func location(of error: any Error, in data: Data) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        guard let range = detail.range(of: "character "),
            let offset = Int(detail[range.upperBound...].prefix(while: \.isNumber))
        else { return "" }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == 10 {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }
}
