/// What changed from one version of an item to the next, in a few words: one line of
/// `quire history` and of the app's history view.
public enum VersionSummary {
    /// `older` is the version recorded before `item`; nil when `item` created the item.
    public static func describe(_ item: Item, since older: Item?) -> String {
        guard let older else {
            return "created \(item.kind.rawValue) \(quoted(item.title))" + (item.deleted ? " (deleted)" : "")
        }
        var parts: [String] = []
        if item.deleted != older.deleted { parts.append(item.deleted ? "deleted" : "restored") }
        for (field, change) in item.changes(since: older).sorted(by: { $0.key < $1.key }) {
            switch field {
            case .title: parts.append("title \(quoted(older.title)) → \(quoted(item.title))")
            case .body: parts.append("body edited (\(older.body.utf8.count) → \(item.body.utf8.count) bytes)")
            case .tags:
                let added = Set(item.tags).subtracting(older.tags).sorted().map { "+" + $0 }
                let removed = Set(older.tags).subtracting(item.tags).sorted().map { "-" + $0 }
                parts.append("tags " + (added + removed).joined(separator: " "))
            case .done: parts.append(item.done ? "done" : "reopened")
            case .pinned: parts.append(item.pinned ? "pinned" : "unpinned")
            default: parts.append("\(field.rawValue) \(text(change.from)) → \(text(change.to))")
            }
        }
        // A version that only moved the item's revision (the server's copy of the same values)
        // says so in words: the revision numbers mean nothing to a person.
        return parts.isEmpty ? "the same values, as the server now has them" : parts.joined(separator: "; ")
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private static func text(_ value: FieldValue) -> String {
        switch value {
        case .null: "none"
        case .string(let text): text
        case .bool(let flag): flag ? "yes" : "no"
        case .strings(let list): list.joined(separator: ", ")
        case .sha256(let hex): hex
        case .sealed, .mac: "(sealed)"
        }
    }
}
