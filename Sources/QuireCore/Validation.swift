/// Why a value cannot be stored; each case reads as one clear line for the person who typed it.
public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyTitle
    case multilineTitle
    case titleTooLong(bytes: Int)
    case tooManyTags(count: Int)
    case tagTooLong(String)
    case bodyTooLarge(bytes: Int)
    /// Title, body and tags together pass `Validation.maxItemBytes`.
    case itemTooLarge(bytes: Int)
    /// A stored or sent due date that is not `YYYY-MM-DD`.
    case invalidDate(String)
    /// A date a person typed that names no day (`DateWords`).
    case date(DateWords.Failure)
    case invalidPriority(String)
    case invalidKind(String)
    /// A project name with an empty part, a control character or too many bytes.
    case invalidProject(String)
    /// Not a recurrence rule (`Recurrence`).
    case invalidRecurrence(String)
    /// A rule on a note or on a task without a due date: there is no date to recur from.
    case recurrenceNeedsDue
    case wrongType(field: Field)
    /// Not an attachment reference (`AttachedFile.wireText`).
    case invalidAttachment(String)

    public var description: String {
        switch self {
        case .emptyTitle: "the title is empty"
        case .multilineTitle: "the title must be one line"
        case .titleTooLong(let bytes):
            "the title is \(bytes) bytes; the limit is \(Validation.maxTitleBytes) bytes: put the rest in the body"
        case .tooManyTags(let count): "\(count) tags; the limit is \(Validation.maxTags)"
        case .tagTooLong(let tag):
            "the tag '\(tag.prefix(40))…' is \(tag.utf8.count) bytes; the limit is \(Validation.maxTagBytes) bytes"
        case .bodyTooLarge(let bytes):
            "the body is \(bytes) bytes; the limit is \(Validation.maxBodyBytes) bytes (1 MiB)"
        case .itemTooLarge(let bytes):
            "the title, body and tags are \(bytes) bytes together; the limit is \(Validation.maxItemBytes) bytes (1 MiB + 64 KiB): shorten the title or the body"
        case .invalidDate(let text): "invalid date '\(text)': use YYYY-MM-DD"
        case .date(let failure): failure.description
        case .invalidPriority(let text): "invalid priority '\(text)': use none, low, medium or high"
        case .invalidKind(let text): "invalid kind '\(text)': use note or task"
        case .invalidProject(let text):
            "invalid project '\(text.prefix(60))': use names joined by dots, such as home.garden (at most \(Validation.maxProjectBytes) bytes)"
        case .invalidRecurrence(let text):
            "invalid recurrence '\(text.prefix(40))': use daily, weekly, monthly, yearly or a count such as 3d, 2w, 6m, 1y (or none)"
        case .recurrenceNeedsDue:
            "only a task with a due date recurs: give it a due date (--due DATE) or stop the series (--recur none)"
        case .wrongType(let field): "wrong type of value for field '\(field.rawValue)'"
        case .invalidAttachment(let text): "invalid attachment reference '\(text.prefix(80))'"
        }
    }
}

/// The limits and checks every writer of items shares (CLI, TUI, import, server): the one
/// place they are written down, so that this device never keeps a change the server refuses.
public enum Validation {
    /// SPEC: a body is any size up to 1 MiB.
    public static let maxBodyBytes = 1 << 20
    /// SPEC "Limits": a title is one line of at most 4 KiB; an item has at most 100 tags of at
    /// most 256 bytes each.
    public static let maxTitleBytes = 4 << 10
    public static let maxTags = 100
    public static let maxTagBytes = 256
    /// A project is a short name path (`home.garden`), as long as a tag.
    public static let maxProjectBytes = 256
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
        _ = try tags(item.tags)
        let bytes = itemBytes(title: item.title, body: item.body, tags: item.tags)
        guard bytes <= maxItemBytes else { throw .itemTooLarge(bytes: bytes) }
        return item
    }

    /// A title, trimmed; it must be non-empty and on one line.
    public static func title(_ text: String) throws(ValidationError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .emptyTitle }
        // By bytes, not characters: "\r\n" is one Character, equal to neither "\n" nor "\r", so a
        // walk through characters let a CR LF line break into a title.
        guard !trimmed.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            throw .multilineTitle
        }
        guard trimmed.utf8.count <= maxTitleBytes else { throw .titleTooLong(bytes: trimmed.utf8.count) }
        return trimmed
    }

    /// Tags, normalized (`Tags.normalize`), if there are not too many and none is too long.
    public static func tags(_ list: [String]) throws(ValidationError) -> [String] {
        let normalized = Tags.normalize(list)
        guard normalized.count <= maxTags else { throw .tooManyTags(count: normalized.count) }
        if let long = normalized.first(where: { $0.utf8.count > maxTagBytes }) { throw .tagTooLong(long) }
        return normalized
    }

    /// A body, unchanged, if it fits the size limit.
    public static func body(_ text: String) throws(ValidationError) -> String {
        let bytes = text.utf8.count
        guard bytes <= maxBodyBytes else { throw .bodyTooLarge(bytes: bytes) }
        return text
    }

    /// A due date as a person types it (`DateWords`: `YYYY-MM-DD`, `tomorrow`, `fri`, `+3d` …,
    /// counted from `today`; only `YYYY-MM-DD` without one), or nil for `none` or an empty string.
    public static func due(_ text: String, today: Day?) throws(ValidationError) -> Day? {
        if text.isEmpty || text.lowercased() == "none" { return nil }
        do { return try DateWords.day(text, today: today) } catch { throw .date(error) }
    }

    /// A project as a person types it, trimmed: nil for none (an empty string or `none`);
    /// refused with an empty part (`home..garden`, `.home`), a control character or more than
    /// `maxProjectBytes`. A part may hold spaces (`home.front garden`).
    public static func project(_ text: String) throws(ValidationError) -> String? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return nil }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard trimmed.utf8.count <= maxProjectBytes,
            !parts.contains(where: { String($0).trimmingWhitespace().isEmpty }),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidProject(text) }
        return parts.map { String($0).trimmingWhitespace() }.joined(separator: ".")
    }

    /// A recurrence rule as a person types it: nil for `none` or nothing.
    public static func recurrence(_ text: String) throws(ValidationError) -> Recurrence? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return nil }
        guard let rule = Recurrence(trimmed) else { throw .invalidRecurrence(text) }
        return rule
    }

    /// Refuses a recurrence rule on an item that has nothing to recur from: a person's change
    /// is checked, not what sync brings (a merge may pair one device's rule with another's
    /// cleared due date; such an item simply brings up no next occurrence).
    public static func recurrence(of item: Item) throws(ValidationError) {
        guard item.recur != nil else { return }
        guard item.kind == .task, item.due != nil else { throw .recurrenceNeedsDue }
    }

    /// A priority by name or by the shorter names Taskwarrior users type (case-insensitive):
    /// `h`, `m`, `med`, `l`, and `n` for none.
    public static func priority(_ text: String) throws(ValidationError) -> Priority {
        let name = text.lowercased()
        if let value = Priority(rawValue: name) { return value }
        switch name {
        case "h", "hi": return .high
        case "m", "med": return .medium
        case "l", "lo": return .low
        case "n": return .none
        default: throw .invalidPriority(text)
        }
    }
}
