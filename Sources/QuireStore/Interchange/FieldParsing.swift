import Foundation
import QuireCore

/// Checks shared by every import format: each turns one raw value into a typed one or says
/// what is wrong with it in words a person can fix.
enum FieldParsing {
    static func kind(_ text: String) throws(ImportError) -> ItemKind {
        guard let kind = ItemKind(rawValue: text.lowercased()) else {
            throw ImportError("", ValidationError.invalidKind(text).description)
        }
        return kind
    }

    static func title(_ text: String) throws(ImportError) -> String {
        do { return try Validation.title(text) } catch { throw ImportError("", error.description) }
    }

    static func body(_ text: String) throws(ImportError) -> String {
        do { return try Validation.body(text) } catch { throw ImportError("", error.description) }
    }

    static func due(_ text: String) throws(ImportError) -> Day? {
        // A file's dates do not depend on the day it is imported: YYYY-MM-DD only.
        do { return try Validation.due(text, today: nil) } catch { throw ImportError("", error.description) }
    }

    /// nil for `none` or an empty value.
    static func recurrence(_ text: String) throws(ImportError) -> Recurrence? {
        do { return try Validation.recurrence(text) } catch { throw ImportError("", error.description) }
    }

    /// nil for `none` or an empty value.
    static func project(_ text: String) throws(ImportError) -> String? {
        do { return try Validation.project(text) } catch { throw ImportError("", error.description) }
    }

    static func priority(_ text: String) throws(ImportError) -> Priority {
        do { return try Validation.priority(text) } catch { throw ImportError("", error.description) }
    }

    static func time(_ text: String, field: String) throws(ImportError) -> Date {
        guard let date = StoreTime.date(from: text) else {
            throw ImportError("", "'\(field)' is not an RFC 3339 time: \(text)")
        }
        return date
    }

    static func id(_ text: String) throws(ImportError) -> String {
        guard UUIDv7Generator.isValid(text) else { throw ImportError("", "'\(text)' is not a UUID") }
        return text.lowercased()
    }
}
