import Foundation
import QuireCore

/// `Resources/openapi.yaml` (written in the JSON subset of YAML) and a small JSON Schema
/// checker for the keywords it uses: `$ref`, `type`, `properties`, `required`,
/// `additionalProperties`, `items`, `maxItems`, `enum`, `const`, `oneOf`, `minimum`, `maximum`,
/// `minLength`, `pattern` and the formats `uuid`, `date` and `date-time`.
struct OpenAPIDocument: Sendable {
    let root: JSONValue

    static let shared: OpenAPIDocument = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Resources/openapi.yaml")
        do {
            return OpenAPIDocument(root: try JSONValue.parse(try Data(contentsOf: url)))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    /// The schema of a documented response, or why there is none.
    func responseSchema(path: String, method: String, status: Int) -> Result<JSONValue?, SchemaError> {
        guard let operation = root["paths"]?[template(of: path)]?[method.lowercased()] else {
            return .failure(SchemaError("\(method) \(path) is not in openapi.yaml"))
        }
        guard let response = operation["responses"]?[String(status)] else {
            return .failure(SchemaError("\(method) \(path) answered \(status), which openapi.yaml does not document"))
        }
        return .success(response["content"]?["application/json"]?["schema"])
    }

    /// The documented path `path` matches: itself, or a templated one (`/v1/chunks/{hash}`)
    /// whose fixed segments it shares.
    func template(of path: String) -> String {
        if root["paths"]?[path] != nil { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for candidate in root["paths"]?.object?.keys.sorted() ?? [] where candidate.contains("{") {
            let parts = candidate.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == segments.count,
                zip(parts, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 })
            {
                return candidate
            }
        }
        return path
    }

    /// Every way `value` breaks the response schema of `method path status` (empty: it conforms).
    func problems(path: String, method: String, status: Int, body: [UInt8]) -> [String] {
        switch responseSchema(path: path, method: method, status: status) {
        case .failure(let error): return [error.text]
        case .success(nil): return []
        case .success(let schema?):
            guard let value = try? JSONValue.parse(body) else {
                return [
                    "the \(status) answer of \(method) \(path) is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"
                ]
            }
            return problems(value, schema: schema, at: "$")
        }
    }

    /// Every way `value` breaks the named component schema.
    func problems(_ value: JSONValue, component: String) -> [String] {
        problems(value, schema: .object(["$ref": .string("#/components/schemas/\(component)")]), at: "$")
    }

    func problems(_ value: JSONValue, schema: JSONValue, at path: String) -> [String] {
        guard case .object(let rules) = schema else { return ["\(path): schema is not an object"] }
        if let reference = rules["$ref"]?.string {
            let name = reference.replacingOccurrences(of: "#/components/schemas/", with: "")
            guard let target = root["components"]?["schemas"]?[name] else {
                return ["\(path): unknown $ref \(reference)"]
            }
            return problems(value, schema: target, at: path)
        }
        var found: [String] = []
        if let type = rules["type"] {
            let allowed: Set<String>
            switch type {
            case .string(let name): allowed = [name]
            case .array(let names): allowed = Set(names.compactMap(\.string))
            default: allowed = []
            }
            if allowed.isDisjoint(with: value.typeNames) {
                return [
                    "\(path): expected \(allowed.sorted().joined(separator: " or ")), found \(value.typeNames.sorted().last ?? "?")"
                ]
            }
        }
        if let options = rules["enum"], case .array(let values) = options, !values.contains(value) {
            found.append("\(path): \(value) is not one of \(values)")
        }
        if let constant = rules["const"], constant != value {
            found.append("\(path): expected \(constant), found \(value)")
        }
        if let choices = rules["oneOf"], case .array(let schemas) = choices {
            let matching = schemas.filter { problems(value, schema: $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): matches \(matching) of the oneOf schemas, not exactly one") }
        }
        switch value {
        case .object(let object):
            let properties = rules["properties"]?.object ?? [:]
            if case .array(let required)? = rules["required"] {
                for key in required.compactMap(\.string) where object[key] == nil {
                    found.append("\(path): missing required '\(key)'")
                }
            }
            for (key, member) in object {
                if let schema = properties[key] {
                    found += problems(member, schema: schema, at: "\(path).\(key)")
                } else if case .bool(false)? = rules["additionalProperties"] {
                    found.append("\(path): unexpected property '\(key)'")
                } else if case .object? = rules["additionalProperties"], let schema = rules["additionalProperties"] {
                    found += problems(member, schema: schema, at: "\(path).\(key)")
                }
            }
        case .array(let elements):
            if case .number(let most)? = rules["maxItems"], Double(elements.count) > most {
                found.append("\(path): more than \(Int(most)) items")
            }
            if let schema = rules["items"] {
                for (index, element) in elements.enumerated() {
                    found += problems(element, schema: schema, at: "\(path)[\(index)]")
                }
            }
        case .number(let number):
            if case .number(let least)? = rules["minimum"], number < least {
                found.append("\(path): \(number) < \(least)")
            }
            if case .number(let most)? = rules["maximum"], number > most {
                found.append("\(path): \(number) > \(most)")
            }
        case .string(let text):
            if case .number(let least)? = rules["minLength"], Double(text.count) < least {
                found.append("\(path): shorter than \(Int(least))")
            }
            if let pattern = rules["pattern"]?.string, let regex = try? Regex(pattern),
                (try? regex.wholeMatch(in: text)) == nil,
                (try? regex.firstMatch(in: text)) == nil
            {
                found.append("\(path): '\(text.prefix(80))' does not match \(pattern)")
            }
            switch rules["format"]?.string {
            case "uuid": if !UUIDv7Generator.isValid(text) { found.append("\(path): '\(text)' is not a UUID") }
            case "date": if Day(text) == nil { found.append("\(path): '\(text)' is not a date") }
            case "date-time":
                if Timestamp.date(from: text) == nil { found.append("\(path): '\(text)' is not an RFC 3339 time") }
            default: break
            }
        default:
            break
        }
        return found
    }
}

struct SchemaError: Error, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}
