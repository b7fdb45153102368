import Foundation

/// Any JSON value, with a boolean never mistaken for a number: what an import reads its
/// entries' fields from (see `JSONValueReader`), and what tests read the server's answers as.
///
/// Why not Foundation's `[String: Any]`: every field read was a dynamic cast, and a boolean
/// could only be told from a number by its Objective-C type code. Those casts and building the
/// dictionary were a tenth of an import's time.
public enum JSONValue: Hashable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value Foundation's `JSONSerialization` decoded; nil for a type it never makes.
    public init?(foundation value: Any) {
        switch value {
        case is NSNull:
            self = .null
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // JSONSerialization gives NSNumber for numbers and booleans alike; only true and
            // false have type code "c", so that 1 and 0 stay numbers.
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case let list as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(list.count)
            for element in list {
                guard let value = JSONValue(foundation: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let object as [String: Any]:
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(object.count)
            for (key, element) in object {
                guard let value = JSONValue(foundation: element) else { return nil }
                fields[key] = value
            }
            self = .object(fields)
        default:
            return nil
        }
    }

    /// Decodes strictly: a boolean only from `true` or `false`, then a number, then the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
