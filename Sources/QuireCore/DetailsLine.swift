/// The built-in editor's one-line form of an item's tags, project, due date, priority,
/// recurrence and dates: `#home #errands project home.garden due 2026-11-30 priority high
/// recur weekly wait 2026-11-27 scheduled 2026-11-28`.
///
/// One line rather than three fields keeps the editor's header one row taller only, so it
/// still fits the smallest terminal, and reads as a person would write it in a note.
/// `project:home`, `due:2026-11-30`, `priority:high`, `recur:weekly`, `wait:+3d` and
/// `scheduled:fri` work too; `none` clears any of them. A tag with a space is written in
/// quotes: `#"reading list"`.
public enum DetailsLine {
    public struct Values: Hashable, Sendable {
        public var tags: [String]
        /// A note's notebook or a task's project.
        public var project: String?
        public var due: Day?
        public var priority: Priority
        public var recur: Recurrence?
        public var wait: Day?
        public var scheduled: Day?

        public init(
            tags: [String] = [], project: String? = nil, due: Day? = nil, priority: Priority = .none,
            recur: Recurrence? = nil, wait: Day? = nil, scheduled: Day? = nil
        ) {
            self.tags = Tags.normalize(tags)
            self.project = project
            self.due = due
            self.priority = priority
            self.recur = recur
            self.wait = wait
            self.scheduled = scheduled
        }

        public init(of item: Item) {
            self.init(
                tags: item.tags, project: item.project, due: item.due, priority: item.priority, recur: item.recur,
                wait: item.wait, scheduled: item.scheduled)
        }
    }

    /// Why a details line cannot be read; one line for the status bar.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A tag as one word, the way it is written and shown everywhere: `#home`, and
    /// `#"reading list"` for a tag with a space (bare, it would read as two things).
    public static func tagWord(_ tag: String) -> String {
        tag.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) ? "#\"\(tag)\"" : "#" + tag
    }

    /// What the editor shows for an item's values (empty when it has none).
    public static func text(_ values: Values) -> String {
        var words = values.tags.map(tagWord)
        if let project = values.project {
            words.append(
                "project " + (project.contains(where: { $0 == " " || $0 == "\t" }) ? "\"\(project)\"" : project))
        }
        if let due = values.due { words.append("due \(due)") }
        if values.priority != .none { words.append("priority \(values.priority.rawValue)") }
        if let recur = values.recur { words.append("recur \(recur)") }
        if let wait = values.wait { words.append("wait \(wait)") }
        if let scheduled = values.scheduled { words.append("scheduled \(scheduled)") }
        return words.joined(separator: " ")
    }

    /// Reads a details line; a note takes tags and a project (its notebook) only. A due date in words counts from `today`
    /// (without one, only `YYYY-MM-DD` is taken).
    public static func parse(_ text: String, kind: ItemKind, today: Day? = nil) throws(Problem) -> Values {
        var values = Values()
        var tags: [String] = []
        var words = try split(text)[...]
        var previousTag: String?
        while let word = words.popFirst() {
            if word.hasPrefix("#") {
                let tag = String(word.dropFirst()).trimmingWhitespace()
                guard !tag.isEmpty else { throw Problem(description: "a # with no tag after it") }
                tags.append(tag)
                previousTag = tag
                continue
            }
            let (name, attached) = nameAndValue(word)
            guard ["due", "priority", "project", "recur", "wait", "scheduled"].contains(name) else {
                throw Problem(description: notADetail(word, after: previousTag, kind: kind))
            }
            previousTag = nil
            if name == "project" {
                guard let value = attached ?? words.popFirst() else {
                    throw Problem(description: "project needs a name such as home.garden, or none")
                }
                do { values.project = try Validation.project(value) } catch {
                    throw Problem(description: error.description)
                }
                continue
            }
            let what = ["due": "due date", "priority": "priority", "recur": "recurrence"][name] ?? "\(name) date"
            guard kind == .task else { throw Problem(description: "only tasks have a \(what)") }
            guard let value = attached ?? words.popFirst() else {
                throw Problem(
                    description: name == "priority"
                        ? "priority needs none, low, medium or high"
                        : name == "recur"
                            ? "recur needs a rule: daily, weekly, monthly, yearly, 3d, 2w, 6m, 1y, or none"
                            : "\(name) needs a date: YYYY-MM-DD, a word such as tomorrow or fri, +3d, or none")
            }
            do {
                switch name {
                case "due": values.due = try Validation.due(value, today: today)
                case "wait": values.wait = try Validation.due(value, today: today)
                case "scheduled": values.scheduled = try Validation.due(value, today: today)
                case "recur": values.recur = try Validation.recurrence(value)
                default: values.priority = try Validation.priority(value)
                }
            } catch {
                throw Problem(description: error.description)
            }
        }
        values.tags = Tags.normalize(tags)
        if values.recur != nil && values.due == nil {
            throw Problem(description: ValidationError.recurrenceNeedsDue.description)
        }
        return values
    }

    /// The error for a word that is no detail. A word with a space came in quotes without a
    /// `#`, and a word right after a tag is most likely the rest of a tag with a space: both
    /// are shown in the form that works, `#"reading list"`.
    private static func notADetail(_ word: String, after previousTag: String?, kind: ItemKind) -> String {
        if word.contains(" ") {
            return "“\(word)” is not a detail: write a tag with spaces as #\"\(word)\""
        }
        if let previousTag, !word.contains(":") {
            return "“\(word)” is not a detail: write a tag with spaces as #\"\(previousTag) \(word)\""
        }
        return "“\(word)” is not a detail: write tags as #tag, a project as project home.garden"
            + (kind == .task ? ", a due date as due YYYY-MM-DD, a priority as priority high" : "")
    }

    /// `due:2026-11-30` → ("due", "2026-11-30"); `due` → ("due", nil).
    private static func nameAndValue(_ word: String) -> (String, String?) {
        guard let colon = word.firstIndex(of: ":") else { return (word.lowercased(), nil) }
        let value = String(word[word.index(after: colon)...])
        return (word[..<colon].lowercased(), value.isEmpty ? nil : value)
    }

    /// Words split at spaces; `"…"` keeps spaces inside one word (the quotes are dropped).
    private static func split(_ text: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if !quoted && (character == " " || character == "\t") {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw Problem(description: "a quote is not closed") }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
