import QuireCore

/// Why a store call failed; each case reads as one clear line for the person at the terminal.
///
/// The CLI maps them to SPEC exit codes: `unusable` is 6, `notFound` and `unknownPrefix` are 2,
/// everything else is bad input (1). A failed call never leaves a partial change behind.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database cannot be opened or used: not SQLite, corrupt, not writable, made by a newer
    /// Quire. The file is left exactly as it was.
    case unusable(path: String, reason: String)
    /// No item has this full id.
    case notFound(id: String)
    /// No item id starts with this prefix.
    case unknownPrefix(String)
    /// More than one item id starts with this prefix; `candidates` lists a few of them.
    case ambiguousPrefix(String, candidates: [String])
    /// The text is not an id or an id prefix of at least `AppDatabase.minimumPrefixLength` characters.
    case invalidPrefix(String)
    /// A value a person typed does not fit the item (empty title, bad date, body too large...).
    case invalid(ValidationError)
    /// Only tasks can be done or reopened.
    case notATask(id: String, title: String)
    /// The item is deleted; it must be restored before it can be edited.
    case deleted(id: String, title: String)

    public var description: String {
        switch self {
        case .unusable(let path, let reason):
            "the database \(path) cannot be used: \(reason)"
        case .notFound(let id):
            "no item has the id \(id)"
        case .unknownPrefix(let prefix):
            "no item has the id '\(prefix)'"
        case .ambiguousPrefix(let prefix, let candidates):
            "the id prefix '\(prefix)' is ambiguous: it matches \(candidates.joined(separator: ", "))"
                + (candidates.count >= AppDatabase.ambiguityListLength ? " and maybe more" : "")
                + "; type more characters"
        case .invalidPrefix(let text):
            "'\(text)' is not an item id: give the id or a prefix of at least \(AppDatabase.minimumPrefixLength) of its characters"
        case .invalid(let error):
            error.description
        case .notATask(let id, let title):
            "'\(title)' (\(id.prefix(13))) is a note; only tasks can be done or reopened"
        case .deleted(let id, let title):
            "'\(title)' (\(id.prefix(13))) is deleted; restore it first with 'quire restore'"
        }
    }

    /// The same error with every item id in it replaced by what `name` gives for it (the short
    /// id a person reads in lists), where it gives one.
    public func naming(_ name: (String) -> String?) -> StoreError {
        switch self {
        case .ambiguousPrefix(let prefix, let candidates):
            .ambiguousPrefix(prefix, candidates: candidates.map { name($0) ?? $0 })
        case .notATask(let id, let title): .notATask(id: name(id) ?? id, title: title)
        case .deleted(let id, let title): .deleted(id: name(id) ?? id, title: title)
        default: self
        }
    }
}
