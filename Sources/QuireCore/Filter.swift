import Foundation

/// A filter as a person types it (SPEC: Filters), read once by `Filter.parse` and used by
/// `quire list`, `quire search` and the app alike: the store runs it as SQL, and `admits`
/// says the same in memory.
///
/// Dates in it are already days and instants: words such as `eow` are read when the filter is
/// parsed, against the day the person is in, so the value means the same wherever it runs.
public indirect enum Filter: Hashable, Sendable {
    /// Every item: the empty filter.
    case all
    case term(Term)
    /// Every part holds (`a b`, `a and b`).
    case and([Filter])
    /// At least one part holds (`a or b`).
    case or([Filter])

    /// One test of one field.
    public enum Term: Hashable, Sendable {
        /// A free word: some word of the title, body or tags starts with it (lowercased, as
        /// the full-text index folds case).
        case word(String)
        /// `+tag` (present) or `-tag` (absent), without regard to case.
        case tag(String, present: Bool)
        case kind(ItemKind)
        case status(StatusFilter)
        case priority(Priority)
        /// `project:home`: the project and every project under it; nil for `project:none`.
        case project(String?)
        /// `due…`: nil for `due:none` (no due date).
        case due(DayRange?)
        /// `wait…`: nil for `wait:none`.
        case wait(DayRange?)
        /// `scheduled…`: nil for `scheduled:none`.
        case scheduled(DayRange?)
        /// `status:waiting`: open tasks waiting past this day (the day the filter was read).
        case waiting(after: Day)
        case created(TimeRange)
        case updated(TimeRange)
        /// `has:link`: the body holds a `[[…]]` link (`WikiLink.links`), whether it reaches an
        /// item or not.
        case hasLink
        /// `has:attachment`: at least one file is attached.
        case hasAttachment
        /// `links:ID`: the body links to the item with this id, as typed on the command line
        /// (the store finds the item, then every link that reaches it: by id, title or former
        /// title).
        case links(String)
    }

    /// Days from `first` through `last`, each end open when nil.
    public struct DayRange: Hashable, Sendable {
        public var first: Day?
        public var last: Day?

        public init(first: Day?, last: Day?) {
            self.first = first
            self.last = last
        }

        public func contains(_ day: Day) -> Bool {
            (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
        }

        /// A date term's test: a day in `range`, or no day for a nil range (`due:none`).
        static func admits(_ day: Day?, _ range: DayRange?) -> Bool {
            guard let range else { return day == nil }
            return day.map(range.contains) ?? false
        }
    }

    /// Instants from `start` (included) up to `end` (excluded), each end open when nil: the
    /// local days a `created` or `updated` term names.
    public struct TimeRange: Hashable, Sendable {
        public var start: Date?
        public var end: Date?

        public init(start: Date?, end: Date?) {
            self.start = start
            self.end = end
        }

        public func contains(_ date: Date) -> Bool {
            (start.map { $0 <= date } ?? true) && (end.map { date < $0 } ?? true)
        }
    }

    /// Whether `item` passes the filter: the in-memory reading of what the store runs as SQL.
    public func admits(_ item: Item) -> Bool {
        switch self {
        case .all: true
        case .term(let term): term.admits(item)
        case .and(let parts): parts.allSatisfy { $0.admits(item) }
        case .or(let parts): parts.contains { $0.admits(item) }
        }
    }

    /// The free words that every match must hold (those not under an `or`), which a search
    /// ranks by; the rest of the filter only narrows.
    public var rankingWords: [String] {
        switch self {
        case .term(.word(let word)): [word]
        case .and(let parts): parts.flatMap(\.rankingWords)
        case .all, .term, .or: []
        }
    }

    /// The filter less its `rankingWords`: what a ranked search of those words must still
    /// meet (the full-text index has checked the words themselves).
    public var withoutRankingWords: Filter {
        switch self {
        case .term(.word): return .all
        case .and(let parts):
            let rest = parts.map(\.withoutRankingWords).filter { $0 != .all }
            return rest.isEmpty ? .all : rest.count == 1 ? rest[0] : .and(rest)
        case .all, .term, .or: return self
        }
    }

    /// True for the empty filter.
    public var isEmpty: Bool { self == .all }

    /// True when a term asks about waiting (`status:waiting`, `wait…`): such a filter shows
    /// the waiting tasks a default list hides.
    public var mentionsWaiting: Bool {
        switch self {
        case .all: false
        case .term(.waiting), .term(.wait): true
        case .term: false
        case .and(let parts), .or(let parts): parts.contains(where: \.mentionsWaiting)
        }
    }
}

extension Filter.Term {
    /// Whether `item` passes this one test.
    public func admits(_ item: Item) -> Bool {
        switch self {
        case .word(let word):
            let texts = [item.title, item.body] + item.tags
            return texts.contains { SearchQuery.words($0).contains { $0.hasPrefix(word) } }
        case .tag(let tag, let present):
            return item.tags.contains { Tags.same($0, tag) } == present
        case .kind(let kind): return item.kind == kind
        case .status(let status): return status.admits(item)
        case .priority(let priority): return item.priority == priority
        case .project(let name):
            guard let name else { return item.project == nil }
            return Projects.contains(item.project, within: name)
        case .due(let range): return Filter.DayRange.admits(item.due, range)
        case .wait(let range): return Filter.DayRange.admits(item.wait, range)
        case .scheduled(let range): return Filter.DayRange.admits(item.scheduled, range)
        case .waiting(let today): return item.isWaiting(after: today)
        case .created(let range): return range.contains(item.createdAt)
        case .updated(let range): return range.contains(item.updatedAt)
        case .hasLink: return !WikiLink.links(in: item.body).isEmpty
        case .hasAttachment: return !item.attachments.isEmpty
        case .links(let target):
            // Without the store an id prefix or a title cannot be looked up: in memory a link
            // written as the text given (a full id, or a title) is the best reading there is.
            let key = WikiLink.key(target)
            return WikiLink.links(in: item.body).contains { $0.key == key }
        }
    }
}
