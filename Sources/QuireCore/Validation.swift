/// Why a value cannot be stored; each case reads as one clear line for the person who typed it.
public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyTitle
    case multilineTitle
    case bodyTooLarge(bytes: Int)
    /// Title, body and tags together pass `Validation.maxItemBytes`.
    case itemTooLarge(bytes: Int)
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
        case .itemTooLarge(let bytes):
            "the title, body and tags are \(bytes) bytes together; the limit is \(Validation.maxItemBytes) bytes (1 MiB + 64 KiB): shorten the title or the body"
        case .invalidDate(let text): "invalid date '\(text)': use YYYY-MM-DD"
        case .invalidPriority(let text): "invalid priority '\(text)': use none, low, medium or high"
        case .invalidKind(let text): "invalid kind '\(text)': use note or task"
        case .wrongType(let field): "wrong type of value for field '\(field.rawValue)'"
        }
    }
}

/// The limits and checks every writer of items shares (CLI, TUI, import, server): the one
/// place they are written down, so that this device never keeps a change the server refuses.
public enum Validation {
    /// SPEC: a body is any size up to 1 MiB.
    public static let maxBodyBytes = 1 << 20
    /// The largest item a server accepts by default: the UTF-8 bytes of its title, body and
    /// tags together (`SyncLimits.maxItemBytes`).
    public static let maxItemBytes = maxBodyBytes + (64 << 10)

    /// What counts toward `maxItemBytes`.
    public static func itemBytes(title: String, body: String, tags: [String]) -> Int {
        title.utf8.count + body.utf8.count + tags.reduce(0) { $0 + $1.utf8.count }
    }

    /// The item unchanged if the server's size limits let it through.
    @discardableResult
    public static func size(of item: Item) throws(ValidationError) -> Item {
        _ = try body(item.body)
        let bytes = itemBytes(title: item.title, body: item.body, tags: item.tags)
        guard bytes <= maxItemBytes else { throw .itemTooLarge(bytes: bytes) }
        return item
    }

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
