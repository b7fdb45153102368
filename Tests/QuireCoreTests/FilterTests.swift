import Foundation
import QuireCore
import Testing

/// The filter language (SPEC: Filters): each term, the precedence of `and` and `or`, quoting,
/// and a one-line error naming the term at fault.
@Suite struct FilterTests {
    /// A Thursday; its week ends on Sunday 2026-11-29.
    static let calendar = FilterCalendar.utc(today: Day("2026-11-26")!)

    static func parse(_ text: String) throws -> Filter {
        try Filter.parse(text, calendar: calendar)
    }

    static func failure(_ text: String) -> String? {
        do {
            _ = try Filter.parse(text, calendar: calendar)
            return nil
        } catch {
            return error.description
        }
    }

    static func days(_ first: String?, _ last: String?) -> Filter {
        .term(.due(Filter.DayRange(first: first.flatMap(Day.init), last: last.flatMap(Day.init))))
    }

    @Test func eachTermReadsAsItsTest() throws {
        #expect(try Self.parse("") == .all)
        #expect(try Self.parse("  ") == .all)
        #expect(try Self.parse("+home") == .term(.tag("home", present: true)))
        #expect(try Self.parse("-Home") == .term(.tag("Home", present: false)))
        #expect(try Self.parse("#work") == .term(.tag("work", present: true)))
        #expect(try Self.parse("+#work") == .term(.tag("work", present: true)))
        #expect(try Self.parse("kind:task") == .term(.kind(.task)))
        #expect(try Self.parse("KIND:Note") == .term(.kind(.note)))
        #expect(try Self.parse("status:open") == .term(.status(.open)))
        #expect(try Self.parse("status:done") == .term(.status(.done)))
        #expect(try Self.parse("priority:h") == .term(.priority(.high)))
        #expect(try Self.parse("priority:med") == .term(.priority(.medium)))
        #expect(try Self.parse("priority:none") == .term(.priority(.none)))
        #expect(try Self.parse("Milk") == .term(.word("milk")))
        #expect(try Self.parse("due:none") == .term(.due(nil)))
        #expect(try Self.parse("project:Home.Garden") == .term(.project("Home.Garden")))
        #expect(try Self.parse("project:none") == .term(.project(nil)))
        #expect(try Self.parse("project:") == .term(.project(nil)))
        #expect(try Self.parse("due:") == .term(.due(nil)))
        #expect(try Self.parse("due:today") == Self.days("2026-11-26", "2026-11-26"))
        #expect(try Self.parse("due.before:tomorrow") == Self.days(nil, "2026-11-26"))
        #expect(try Self.parse("due.after:2026-12-01") == Self.days("2026-12-02", nil))
        // eow, eom and eoy are the end of their day: "before" them includes it.
        #expect(try Self.parse("due.before:eow") == Self.days(nil, "2026-11-29"))
        #expect(try Self.parse("due.before:eom") == Self.days(nil, "2026-11-30"))
        #expect(try Self.parse("due.after:eow") == Self.days("2026-11-30", nil))
        #expect(try Self.parse("due.before:sun") == Self.days(nil, "2026-11-28"))
    }

    @Test func createdAndUpdatedNameTheInstantsOfTheirDays() throws {
        let start = Date(timeIntervalSince1970: TimeInterval(Day("2026-11-26")!.ordinal) * 86_400)
        #expect(
            try Self.parse("created:today")
                == .term(.created(Filter.TimeRange(start: start, end: start.addingTimeInterval(86_400)))))
        #expect(try Self.parse("updated.before:today") == .term(.updated(Filter.TimeRange(start: nil, end: start))))
        #expect(
            try Self.parse("created.after:yesterday")
                == .term(.created(Filter.TimeRange(start: start, end: nil))))
    }

    @Test func andBindsTighterThanOrAndParenthesesGroup() throws {
        let a = Filter.term(.tag("a", present: true))
        let b = Filter.term(.tag("b", present: true))
        let c = Filter.term(.tag("c", present: true))
        let d = Filter.term(.tag("d", present: true))
        #expect(try Self.parse("+a +b") == .and([a, b]))
        #expect(try Self.parse("+a and +b") == .and([a, b]))
        #expect(try Self.parse("+a +b or +c") == .or([.and([a, b]), c]))
        #expect(try Self.parse("+a or +b +c") == .or([a, .and([b, c])]))
        #expect(try Self.parse("+a and +b OR +c and +d") == .or([.and([a, b]), .and([c, d])]))
        #expect(try Self.parse("+a (+b or +c)") == .and([a, .or([b, c])]))
        #expect(try Self.parse("(+a or +b)+c") == .and([.or([a, b]), c]))
        #expect(try Self.parse("((+a))") == a)
        #expect(try Self.parse("+a or +b or +c") == .or([a, b, c]))
    }

    @Test func quotesKeepSpacesAndColonsInOneWord() throws {
        #expect(try Self.parse(#"+"reading list""#) == .term(.tag("reading list", present: true)))
        #expect(try Self.parse(#"#"reading list""#) == .term(.tag("reading list", present: true)))
        #expect(try Self.parse(#""12:30""#) == .and([.term(.word("12")), .term(.word("30"))]))
        #expect(try Self.parse(#""or""#) == .term(.word("or")))
        #expect(try Self.parse(#""(milk)""#) == .term(.word("milk")))
        #expect(try Self.parse("buy-milk") == .and([.term(.word("buy")), .term(.word("milk"))]))
        // A word with no letters or digits narrows nothing.
        #expect(try Self.parse("& +a") == .term(.tag("a", present: true)))
    }

    @Test func aCommandLineArgumentWithSpacesIsOneWord() throws {
        let calendar = Self.calendar
        #expect(
            try Filter.parse(arguments: ["+reading list", "status:open"], calendar: calendar)
                == .and([.term(.tag("reading list", present: true)), .term(.status(.open))]))
        #expect(throws: Filter.Failure.self) { try Filter.parse(arguments: ["due:next week"], calendar: calendar) }
        #expect(
            try Filter.parse(arguments: ["buy milk"], calendar: calendar)
                == .and([.term(.word("buy")), .term(.word("milk"))]))
        // Filter text in one argument is read as text.
        #expect(
            try Filter.parse(arguments: ["(+a or +b)", "priority:h"], calendar: calendar)
                == .and([
                    .or([.term(.tag("a", present: true)), .term(.tag("b", present: true))]), .term(.priority(.high)),
                ]))
    }

    @Test(arguments: [
        ("foo:bar", "'foo:bar': unknown field 'foo'"),
        ("https://example.com", "'https://example.com': unknown field 'https'"),
        ("kind:idea", "'kind:idea': kind is note or task"),
        ("status:later", "'status:later': status is open, done or waiting"),
        ("wait:someday", "'wait:someday': 'someday' is not a date"),
        ("scheduled.on:fri", "'scheduled.on:fri': use scheduled:, scheduled.before: or scheduled.after:"),
        ("priority:urgent", "'priority:urgent': priority is none, low, medium or high"),
        ("due:2026-02-30", "'due:2026-02-30': no such day: 2026-02-30"),
        ("due:someday", "'due:someday': 'someday' is not a date"),
        ("due.on:today", "'due.on:today': use due:, due.before: or due.after:"),
        ("kind.before:task", "'kind.before:task': kind takes no .before"),
        ("project:home..garden", "'project:home..garden': invalid project 'home..garden'"),
        ("project.before:home", "'project.before:home': project takes no .before"),
        ("(+a", "a '(' without a ')'"),
        ("+a)", "a ')' without a '('"),
        ("()", "empty parentheses"),
        ("or +a", "'or' needs a term before it"),
        ("+a or", "'or' needs a term after it"),
        ("+a or or +b", "'or' needs a term after it"),
        ("and +a", "'and' needs a term before it"),
        ("+a and", "'and' needs a term after it"),
        (#"+"a"#, "a quote (\") in the filter is not closed"),
        ("+", "'+' names no tag"),
        ("-#", "'-#' names no tag"),
    ])
    func aBadTermIsOneLineNamingIt(_ text: String, _ expected: String) {
        let message = Self.failure(text)
        #expect(message?.contains(expected) == true, "\(text): \(message ?? "no error")")
        #expect(message?.contains("\n") == false)
    }

    /// `wait` and `scheduled` read as `due` does; `status:waiting` is an open task waiting past
    /// the day the filter was read, and a filter that asks about waiting says so.
    @Test func waitScheduledAndWaitingTerms() throws {
        let range = { (first: String?, last: String?) in
            Filter.DayRange(first: first.flatMap(Day.init), last: last.flatMap(Day.init))
        }
        #expect(try Self.parse("wait:none") == .term(.wait(nil)))
        #expect(try Self.parse("wait.after:today") == .term(.wait(range("2026-11-27", nil))))
        #expect(try Self.parse("scheduled.before:eow") == .term(.scheduled(range(nil, "2026-11-29"))))
        #expect(try Self.parse("scheduled:fri") == .term(.scheduled(range("2026-11-27", "2026-11-27"))))
        #expect(try Self.parse("status:waiting") == .term(.waiting(after: Day("2026-11-26")!)))
        #expect(try Self.parse("status:waiting +home").mentionsWaiting)
        #expect(try Self.parse("+home or wait:none").mentionsWaiting)
        #expect(try !Self.parse("+home due:today scheduled:today").mentionsWaiting)

        let when = Date(timeIntervalSince1970: 1_795_000_000)
        var task = Item(id: "a", kind: .task, title: "t", wait: Day("2026-11-28"), createdAt: when)
        #expect(try Self.parse("status:waiting").admits(task))
        #expect(try Self.parse("wait.after:tomorrow").admits(task))
        #expect(try !Self.parse("wait:none").admits(task))
        #expect(try !Self.parse("scheduled.after:2000-01-01").admits(task))
        task.done = true
        #expect(try !Self.parse("status:waiting").admits(task), "a done task waits for nothing")
        task.done = false
        task.wait = Day("2026-11-26")
        #expect(try !Self.parse("status:waiting").admits(task), "its day has come")
    }

    @Test func admitsReadsEachTermOfAnItem() throws {
        let item = Item(
            id: "0190f0e0-0000-7000-8000-000000000001", kind: .task, title: "Buy milk", body: "at the shop",
            tags: ["Errands", "reading list"], due: Day("2026-11-29"), priority: .high,
            createdAt: Date(timeIntervalSince1970: TimeInterval(Day("2026-11-25")!.ordinal) * 86_400 + 3600))
        func admits(_ text: String) throws -> Bool { try Self.parse(text).admits(item) }
        #expect(try admits("mil"))
        #expect(try admits("sho"))
        #expect(try admits("errand"))
        #expect(try !admits("ilk"))
        #expect(try admits("+errands"))
        #expect(try admits(#"+"Reading List""#))
        #expect(try !admits("-errands"))
        #expect(try admits("kind:task status:open priority:high"))
        #expect(try !admits("status:done"))
        #expect(try admits("due.before:eow"))
        #expect(try !admits("due.before:sun"))
        #expect(try admits("due:sun"))
        #expect(try !admits("due:none"))
        #expect(try admits("created:yesterday"))
        #expect(try !admits("created:today"))
        #expect(try admits("created.before:today"))
        #expect(try admits("+nothing or mil"))
        #expect(try !admits("+nothing or (mil status:done)"))
        #expect(try admits("project:none"))
        #expect(try !admits("project:home"))
    }

    /// `project:home` names `home` and every project under it, without regard to case; a
    /// project whose name only starts the same (`homework`) is another project.
    @Test func aProjectTermHoldsItsSubProjects() throws {
        func item(_ project: String?) -> Item {
            Item(id: "0190f0e0-0000-7000-8000-000000000001", title: "x", project: project, createdAt: Date())
        }
        let filter = try Self.parse("project:home")
        #expect(filter.admits(item("home")))
        #expect(filter.admits(item("Home")))
        #expect(filter.admits(item("HOME.garden")))
        #expect(filter.admits(item("home.garden.beds")))
        #expect(!filter.admits(item("homework")))
        #expect(!filter.admits(item("work.home")))
        #expect(!filter.admits(item(nil)))
        #expect(try !Self.parse("project:home.garden").admits(item("home")))
        #expect(Projects.lineage(of: "home.garden.beds") == ["home", "home.garden", "home.garden.beds"])
    }
}

extension FilterTests {
    @Test func aSearchRanksByTheWordsEveryMatchHoldsAndNarrowsByTheRest() throws {
        let filter = try Self.parse("buy +home (milk or +shop) bre")
        #expect(filter.rankingWords == ["buy", "bre"])
        #expect(
            filter.withoutRankingWords
                == .and([
                    .term(.tag("home", present: true)),
                    .or([.term(.word("milk")), .term(.tag("shop", present: true))]),
                ]))
        #expect(try Self.parse("milk").withoutRankingWords == .all)
        #expect(try Self.parse("milk or bread").rankingWords.isEmpty)
    }
}
