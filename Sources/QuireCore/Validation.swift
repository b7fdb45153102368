/// Why a value cannot be stored; each case reads as one clear line for the person who typed it.
public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyTitle
    case multilineTitle
    case bodyTooLarge(bytes: Int)
    case invalidDate(String)
    case invalidPriority(String)
    case invalidKind(String)
    case wrongType(field: Field)

    public var description: String {
        switch self {
        case .emptyTitle: "the title is empty"
        case .multilineTitle: "the title must be one line"
        case .bodyTooLarge(let bytes):
            "the body is \(bytes) bytes; the limit is \(Validation.maxBodyBytes) bytes (1 MiB)"
        case .invalidDate(let text): "invalid date '\(text)': use YYYY-MM-DD"
        case .invalidPriority(let text): "invalid priority '\(text)': use none, low, medium or high"
        case .invalidKind(let text): "invalid kind '\(text)': use note or task"
        case .wrongType(let field): "wrong type of value for field '\(field.rawValue)'"
        }
    }
}

/// The limits and checks every writer of items shares (CLI, TUI, import, server).
public enum Validation {
    /// SPEC: a body is any size up to 1 MiB.
    public static let maxBodyBytes = 1 << 20

    /// A title, trimmed; it must be non-empty and on one line.
    public static func title(_ text: String) throws(ValidationError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .emptyTitle }
        guard !trimmed.contains(where: { $0 == "\n" || $0 == "\r" }) else { throw .multilineTitle }
        return trimmed
    }

    /// A body, unchanged, if it fits the size limit.
    public static func body(_ text: String) throws(ValidationError) -> String {
        let bytes = text.utf8.count
        guard bytes <= maxBodyBytes else { throw .bodyTooLarge(bytes: bytes) }
        return text
    }

    /// A due date from `YYYY-MM-DD`, or nil for `none` or an empty string.
    public static func due(_ text: String) throws(ValidationError) -> Day? {
        if text.isEmpty || text.lowercased() == "none" { return nil }
        guard let day = Day(text) else { throw .invalidDate(text) }
        return day
    }

    /// A priority by name (case-insensitive).
    public static func priority(_ text: String) throws(ValidationError) -> Priority {
        guard let value = Priority(rawValue: text.lowercased()) else { throw .invalidPriority(text) }
        return value
    }
}
