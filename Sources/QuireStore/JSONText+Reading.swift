import Foundation
import QuireCore

extension JSONText {
    /// Reads back `fieldChanges(_:)`. The text this writer makes is read directly; anything
    /// else (spaces, other escapes, another order) goes through `JSONDecoder`. Every outbox row
    /// read by sync is parsed here, so this is on the hot path of a large push.
    public static func parseFieldChanges(_ text: String) throws -> [Field: FieldChange] {
        var text = text
        if let fast = text.withUTF8({ utf8 -> [Field: FieldChange]? in
            var reader = CompactJSONReader(utf8)
            guard let changes = reader.fieldChanges(), reader.isAtEnd else { return nil }
            return changes
        }) {
            return fast
        }
        return try JSONDecoder().decode([Field: FieldChange].self, from: Data(text.utf8))
    }
}
