import Foundation

/// What a filter's dates are read against: the day the person is in and where their days
/// start, so that `due.before:eow` and `created:today` mean the person's week and day. The
/// shells pass the local calendar; tests pass a fixed one.
public struct FilterCalendar: Sendable {
    public var today: Day
    /// The instant a local day starts.
    public var startOfDay: @Sendable (Day) -> Date

    public init(today: Day, startOfDay: @escaping @Sendable (Day) -> Date) {
        self.today = today
        self.startOfDay = startOfDay
    }

    /// Days that start at midnight UTC: for tests and for a machine without a time zone.
    public static func utc(today: Day) -> FilterCalendar {
        FilterCalendar(today: today) { day in
            Date(timeIntervalSince1970: TimeInterval(day.ordinal) * 86_400)
        }
    }
}

extension Filter {
    /// Why a filter could not be read: one line naming the term at fault.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        init(_ description: String) { self.description = description }
    }

    /// The fields a `name:value` term may name, in the order the help lists them.
    public static let fieldNames = [
        "kind", "status", "priority", "project", "due", "wait", "scheduled", "created", "updated", "has", "links",
    ]

    /// Reads `text` as a filter (SPEC: Filters).
    ///
    /// Grammar, loosest first: `or` separates alternatives; terms side by side (or joined by
    /// `and`) must all hold, so `a b or c` is `(a b) or c`; parentheses group. A term is a free
    /// word, `+tag`, `-tag` or `#tag`, or `field:value` with `field.before:` and `field.after:`
    /// for dates. Double quotes keep spaces and colons inside one word (`+"reading list"`,
    /// `"12:30"`). `eow`, `eom` and `eoy` name the end of their day, so `due.before:eow`
    /// includes the week's last day, as Taskwarrior reads it.
    public static func parse(_ text: String, calendar: FilterCalendar) throws(Failure) -> Filter {
        var parser = FilterParser(tokens: try FilterToken.split(text), calendar: calendar)
        return try parser.parse()
    }

    /// Reads the words of a command line, each argument as if typed with spaces between.
    public static func parse(arguments: [String], calendar: FilterCalendar) throws(Failure) -> Filter {
        return try parse(arguments.map(quotedArgument).joined(separator: " "), calendar: calendar)
    }

    /// A tag or field value with spaces given as one argument (`"+reading list"`,
    /// `"due:next week"`): the shell's quotes are gone, so they are put back around the value.
    /// Any other argument is filter text (`'(+home or +garden)'`, `"buy milk"`).
    private static func quotedArgument(_ argument: String) -> String {
        guard argument.contains(where: { $0 == " " || $0 == "\t" }),
            !argument.contains(where: { $0 == "\"" || $0 == "(" || $0 == ")" })
        else { return argument }
        if let first = argument.first, "+-#".contains(first) {
            return String(first) + "\"" + argument.dropFirst() + "\""
        }
        if let colon = argument.firstIndex(of: ":"), argument.startIndex < colon,
            argument[..<colon].allSatisfy({ $0.isLetter || $0 == "." })
        {
            return argument[...colon] + "\"" + argument[argument.index(after: colon)...] + "\""
        }
        return argument
    }
}

/// One token of a filter: a word (perhaps with quoted parts), or `(`, `)`.
struct FilterToken: Equatable {
    /// The text with its quotes removed.
    var text: String
    /// Where the first quoted character is in `text` (nil when nothing was quoted): what
    /// comes before it may be a `+`, `-`, `#` or `field:` prefix; what follows is plain text.
    var quotedFrom: Int?
    /// An unquoted parenthesis.
    var isOpen = false
    var isClose = false

    /// The unquoted lowercased text, for keywords (`or`, `and`).
    var keyword: String? { quotedFrom == nil ? text.lowercased() : nil }

    /// Splits at spaces outside quotes; unquoted parentheses are tokens of their own.
    static func split(_ text: String) throws(Filter.Failure) -> [FilterToken] {
        var tokens: [FilterToken] = []
        var current: FilterToken?
        var inQuotes = false
        func finish() {
            if let token = current { tokens.append(token) }
            current = nil
        }
        for character in text {
            if character == "\"" {
                inQuotes.toggle()
                var token = current ?? FilterToken(text: "")
                if token.quotedFrom == nil { token.quotedFrom = token.text.count }
                current = token
            } else if inQuotes {
                current?.text.append(character)
            } else if character == " " || character == "\t" || character == "\n" {
                finish()
            } else if character == "(" || character == ")" {
                finish()
                tokens.append(FilterToken(text: String(character), isOpen: character == "(", isClose: character == ")"))
            } else {
                var token = current ?? FilterToken(text: "")
                token.text.append(character)
                current = token
            }
        }
        if inQuotes { throw Filter.Failure("a quote (\") in the filter is not closed") }
        finish()
        return tokens
    }
}

/// A recursive-descent reader over the tokens (see `Filter.parse` for the grammar).
struct FilterParser {
    let tokens: [FilterToken]
    let calendar: FilterCalendar
    var position = 0

    init(tokens: [FilterToken], calendar: FilterCalendar) {
        self.tokens = tokens
        self.calendar = calendar
    }

    mutating func parse() throws(Filter.Failure) -> Filter {
        let filter = try alternatives()
        if position < tokens.count {
            // Only a `)` with no `(` stops the reading early.
            throw Filter.Failure("the filter has a ')' without a '(' before it")
        }
        return filter
    }

    private var next: FilterToken? { position < tokens.count ? tokens[position] : nil }

    /// `conjunction (or conjunction)*`
    private mutating func alternatives() throws(Filter.Failure) -> Filter {
        var parts = [try conjunction(after: nil)]
        while next?.keyword == "or" {
            position += 1
            parts.append(try conjunction(after: "or"))
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    /// `unit ((and)? unit)*`; `keyword` is what came before it, for the error when it is empty.
    private mutating func conjunction(after keyword: String?) throws(Filter.Failure) -> Filter {
        var parts: [Filter] = []
        while let token = next, !token.isClose, token.keyword != "or" {
            if token.keyword == "and" {
                guard !parts.isEmpty else { throw Filter.Failure("'and' needs a term before it") }
                position += 1
                guard let following = next, !following.isClose, following.keyword != "or", following.keyword != "and"
                else { throw Filter.Failure("'and' needs a term after it") }
                continue
            }
            if let unit = try unit() { parts.append(unit) }
        }
        if parts.isEmpty {
            if let keyword { throw Filter.Failure("'\(keyword)' needs a term after it") }
            if next?.keyword == "or" { throw Filter.Failure("'or' needs a term before it") }
            if next?.isClose == true, position > 0, tokens[position - 1].isOpen {
                throw Filter.Failure("the filter has empty parentheses '()'")
            }
            return .all
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// `( alternatives )` or a term; nil for a word with no letters or digits.
    private mutating func unit() throws(Filter.Failure) -> Filter? {
        let token = tokens[position]
        position += 1
        if token.isOpen {
            let inner = try alternatives()
            guard next?.isClose == true else { throw Filter.Failure("the filter has a '(' without a ')' after it") }
            position += 1
            if inner == .all { throw Filter.Failure("the filter has empty parentheses '()'") }
            return inner
        }
        return try term(token)
    }

    /// One term: a tag, a field or free words.
    private func term(_ token: FilterToken) throws(Filter.Failure) -> Filter? {
        let text = token.text
        let plain = token.quotedFrom ?? text.count
        if let first = text.first, plain > 0, "+-#".contains(first) {
            let tag = Tags.typed(String(text.dropFirst()))
            guard !tag.isEmpty else {
                throw Filter.Failure("'\(text)' names no tag: write the tag after \(first), as in \(first)home")
            }
            return .term(.tag(tag, present: first != "-"))
        }
        if let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) < plain {
            let name = String(text[..<colon])
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "." }) {
                return .term(try field(name.lowercased(), String(text[text.index(after: colon)...]), term: text))
            }
        }
        let words = SearchQuery.words(text)
        switch words.count {
        case 0: return nil
        case 1: return .term(.word(words[0]))
        default: return .and(words.map { .term(.word($0)) })
        }
    }

    /// `name:value`, where `name` may carry `.before` or `.after`.
    private func field(_ name: String, _ value: String, term: String) throws(Filter.Failure) -> Filter.Term {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let field = parts[0]
        let modifier = parts.count > 1 ? parts[1...].joined(separator: ".") : nil
        let dated = ["due", "wait", "scheduled", "created", "updated"]
        if let modifier {
            guard dated.contains(field) else {
                guard Filter.fieldNames.contains(field) else { throw unknown(field, term: term) }
                throw Filter.Failure("'\(term)': \(field) takes no .\(modifier); only dates take .before and .after")
            }
            guard modifier == "before" || modifier == "after" else {
                throw Filter.Failure("'\(term)': use \(field):, \(field).before: or \(field).after:")
            }
        }
        let lowered = value.trimmingWhitespace().lowercased()
        switch field {
        case "kind":
            guard let kind = ItemKind(rawValue: lowered) else {
                throw Filter.Failure("'\(term)': kind is note or task")
            }
            return .kind(kind)
        case "status":
            switch lowered {
            case "open": return .status(.open)
            case "done": return .status(.done)
            case "waiting": return .waiting(after: calendar.today)
            default: throw Filter.Failure("'\(term)': status is open, done or waiting")
            }
        case "priority":
            do {
                return .priority(try Validation.priority(value))
            } catch {
                throw Filter.Failure("'\(term)': priority is none, low, medium or high (or h, m, l)")
            }
        case "project":
            do {
                return .project(try Validation.project(value))
            } catch {
                throw Filter.Failure("'\(term)': \(error)")
            }
        case "has":
            switch lowered {
            case "link": return .hasLink
            case "attachment": return .hasAttachment
            default: throw Filter.Failure("'\(term)': has is attachment or link")
            }
        case "links":
            let target = value.trimmingWhitespace()
            guard !target.isEmpty else {
                throw Filter.Failure("'\(term)': links needs an item's id, as in links:3fa9")
            }
            return .links(target)
        case "due", "wait", "scheduled", "created", "updated":
            let dayField: (Filter.DayRange?) -> Filter.Term? =
                switch field {
                case "due": Filter.Term.due
                case "wait": Filter.Term.wait
                case "scheduled": Filter.Term.scheduled
                default: { _ in nil }
                }
            if modifier == nil, lowered == "none" || lowered.isEmpty, let none = dayField(nil) { return none }
            let day: Day
            do {
                day = try DateWords.day(value, today: calendar.today)
            } catch {
                throw Filter.Failure("'\(term)': \(error)")
            }
            // `eow`, `eom` and `eoy` are the end of their day: "before" it includes the day.
            let namesEndOfDay = ["eow", "eom", "eoy"].contains(lowered)
            let first: Day?
            let last: Day?
            switch modifier {
            case "before": (first, last) = (nil, namesEndOfDay ? day : day.adding(days: -1))
            case "after": (first, last) = (day.adding(days: 1), nil)
            default: (first, last) = (day, day)
            }
            // The open end of a range is nil too: a bound past the calendar's ends names no day.
            if modifier == "before" && last == nil || modifier == "after" && first == nil {
                throw Filter.Failure("'\(term)': no day comes \(modifier ?? "") \(day)")
            }
            if let dated = dayField(Filter.DayRange(first: first, last: last)) { return dated }
            let range = Filter.TimeRange(
                start: first.map(calendar.startOfDay), end: last.flatMap { $0.adding(days: 1) }.map(calendar.startOfDay)
            )
            return field == "created" ? .created(range) : .updated(range)
        default:
            throw unknown(field, term: term)
        }
    }

    private func unknown(_ field: String, term: String) -> Filter.Failure {
        Filter.Failure(
            "'\(term)': unknown field '\(field)'; filters know "
                + Filter.fieldNames.map { "\($0):" }.joined(separator: ", ")
                + ", +tag and -tag (put a word with a colon in quotes)")
    }
}
