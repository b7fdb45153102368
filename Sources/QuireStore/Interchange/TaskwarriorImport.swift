import Foundation
import QuireCore

/// Reads the output of Taskwarrior's `task export`: a JSON array of tasks, or one JSON task per
/// line as older versions print it.
///
/// Mapping: `description` is the title, annotations become body lines, `tags` the tags,
/// `project` the project (`home.garden`, as Taskwarrior writes it), `H`/`M`/`L` the priority, `due` the due day in
/// the local time zone, `wait` and `scheduled` their days the same way, `entry`/`modified`/`end`
/// the times. `completed` tasks are done, `deleted` ones are imported as deleted.
///
/// Recurrence: a `recurring` template is skipped and each of its instances keeps the rule
/// (`recur`, which instances carry), so the pending instance is the open occurrence of one
/// series: completing it in Quire brings up the next. A rule Quire has no form for (`weekdays`,
/// hours) is listed as not kept.
///
/// Each task's id is a UUIDv7 made from its `entry` time and the bits of its Taskwarrior uuid,
/// so importing the same export twice updates the items instead of duplicating them.
public enum TaskwarriorImport {
    /// Every entry of an export in memory; a file is read with `ImportReader` instead.
    public static func entries(from data: Data, timeZone: TimeZone = .current) throws(ImportError) -> [ImportEntry] {
        var reader = ImportReader(JSONElements(data: data), format: .taskwarrior, timeZone: timeZone)
        return try reader.all()
    }

    static func entry(_ object: [String: JSONValue], timeZone: TimeZone) throws(ImportError) -> ImportEntry? {
        let fields = JSONFields(object)
        let status = try fields.string("status") ?? "pending"
        if status == "recurring" { return nil }
        guard let description = try fields.string("description") else {
            throw ImportError("", "'description' is missing")
        }
        let entryTime = try fields.string("entry").map { text throws(ImportError) in try time(text, field: "entry") }
        var id: String?
        if let uuid = try fields.string("uuid") {
            guard UUIDv7Generator.isValid(uuid) else { throw ImportError("", "'uuid' is not a UUID: \(uuid)") }
            id = derivedID(uuid: uuid, entry: entryTime ?? Date(timeIntervalSince1970: 0))
        }
        let tags = try fields.strings("tags") ?? []
        let project = try fields.string("project").flatMap(FieldParsing.project)
        var annotations: [String] = []
        for annotation in fields.objects("annotations") ?? [] {
            if case .string(let text)? = annotation["description"] { annotations.append(text) }
        }
        let priority: Priority
        switch try fields.string("priority")?.uppercased() {
        case nil, "": priority = .none
        case "H": priority = .high
        case "M": priority = .medium
        case "L": priority = .low
        case let other?: throw ImportError("", "unknown priority '\(other)': use H, M or L")
        }
        let due = try fields.string("due").flatMap { text throws(ImportError) in
            Self.day(of: try time(text, field: "due"), in: timeZone)
        }
        let wait = try fields.string("wait").flatMap { text throws(ImportError) in
            Self.day(of: try time(text, field: "wait"), in: timeZone)
        }
        let scheduled = try fields.string("scheduled").flatMap { text throws(ImportError) in
            Self.day(of: try time(text, field: "scheduled"), in: timeZone)
        }
        let recur = due == nil ? nil : try fields.string("recur").flatMap(Self.rule)
        let end = try fields.string("end").map { text throws(ImportError) in try time(text, field: "end") }
        let modified = try fields.string("modified").map { text throws(ImportError) in try time(text, field: "modified")
        }
        return ImportEntry(
            id: id, kind: .task, title: try FieldParsing.title(description),
            body: try FieldParsing.body(annotations.joined(separator: "\n")), tags: tags,
            done: status == "completed", doneAt: status == "completed" ? end : nil, due: due, priority: priority,
            project: project, recur: recur, wait: wait, scheduled: scheduled, createdAt: entryTime,
            updatedAt: modified ?? end ?? entryTime,
            deleted: status == "deleted")
    }

    /// What Taskwarrior keeps that Quire takes, or that it computes (`id`, `urgency`) and that
    /// means nothing elsewhere; any other attribute of a task is one Quire does not keep.
    static let keptAttributes: Set<String> = [
        "description", "uuid", "status", "entry", "modified", "end", "due", "tags", "project", "priority",
        "annotations", "id", "urgency", "wait", "scheduled",
    ]

    /// The attributes of a task that the import leaves behind (`recur`, `wait`, `depends`,
    /// a user-defined attribute …), so that the summary can say so instead of dropping them in
    /// silence. A recurring task's `parent`, `mask` and `imask` count as its `recur`.
    static func attributesNotKept(_ object: [String: JSONValue]) -> [String] {
        let recurrence: Set<String> = ["recur", "parent", "mask", "imask"]
        // A rule Quire keeps keeps its series' bookkeeping with it.
        var kept = keptAttributes
        if case .string(let text)? = object["recur"], object["due"] != nil, object["due"] != .null, rule(text) != nil {
            kept.formUnion(recurrence)
        }
        var names = Set<String>()
        for (key, value) in object where !kept.contains(key) && value != .null {
            names.insert(recurrence.contains(key) ? "recur" : key)
        }
        return names.sorted()
    }

    /// A Taskwarrior recurrence (`weekly`, `2w`, `3mo`, `quarterly`, `P1M` …) as Quire's rule;
    /// nil for one Quire has no form for (`weekdays`, hours, minutes).
    static func rule(_ text: String) -> Recurrence? {
        let word = text.trimmingWhitespace().lowercased()
        let named: [String: String] = [
            "daily": "1d", "day": "1d", "weekly": "1w", "week": "1w", "biweekly": "2w", "fortnight": "2w",
            "monthly": "1m", "month": "1m", "bimonthly": "2m", "quarterly": "3m", "semiannual": "6m",
            "annual": "1y", "yearly": "1y", "year": "1y", "biannual": "2y", "biyearly": "2y",
        ]
        if let rule = named[word] { return Recurrence(rule) }
        var digits = word.prefix { $0.isASCII && $0.isNumber }
        var name = word.dropFirst(digits.count)
        if digits.isEmpty, word.hasPrefix("p") {
            // ISO 8601: P1D, P2W, P1M, P1Y.
            digits = word.dropFirst().prefix { $0.isASCII && $0.isNumber }
            name = word.dropFirst(1 + digits.count)
        }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        let units: [Substring: (Recurrence.Unit, Int)] = [
            "d": (.day, 1), "days": (.day, 1), "w": (.week, 1), "wk": (.week, 1), "weeks": (.week, 1),
            "mo": (.month, 1), "mos": (.month, 1), "months": (.month, 1), "q": (.month, 3), "quarters": (.month, 3),
            "y": (.year, 1), "yr": (.year, 1), "years": (.year, 1),
        ]
        guard let found = units[name] else { return nil }
        return Recurrence(unit: found.0, count: count * found.1)
    }

    /// Taskwarrior's compact UTC times, `20261122T100000Z` (the ISO form is accepted too).
    static func time(_ text: String, field: String) throws(ImportError) -> Date {
        let digits = Array(text.utf8)
        if digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z") {
            func number(_ range: Range<Int>) -> Int64? { Int64(String(decoding: digits[range], as: UTF8.self)) }
            if let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
                let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
                (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
            {
                let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
                return Date(timeIntervalSince1970: Double(((days * 24 + hour) * 60 + minute) * 60 + second))
            }
        }
        if let date = StoreTime.date(from: text) { return date }
        throw ImportError("", "'\(field)' is not a Taskwarrior time: \(text)")
    }

    static func day(of date: Date, in timeZone: TimeZone) -> Day? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return Day(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    /// A UUIDv7 whose time is `entry` and whose other bits come from the Taskwarrior uuid: its
    /// 12 bits after the version digit as the counter, its last 64 as the tail (the variant's
    /// two bits replaced, as in every UUIDv7 the generator formats).
    ///
    /// The same export must give the same ids in every version of Quire, so that importing it
    /// again updates its items (`TaskwarriorImportTests` pins examples).
    static func derivedID(uuid: String, entry: Date) -> String {
        // The uuid's 32 hex digits as numbers (`isValid` has checked them).
        var digits: [UInt8] = []
        digits.reserveCapacity(32)
        for byte in uuid.utf8 where byte != UInt8(ascii: "-") { digits.append(JSONBytes.hexDigit(byte) ?? 0) }
        guard digits.count == 32 else { preconditionFailure("not a uuid: \(uuid)") }
        func number(_ range: Range<Int>) -> UInt64 { digits[range].reduce(0) { $0 << 4 | UInt64($1) } }
        let milliseconds = UInt64(max(0, (entry.timeIntervalSince1970 * 1000).rounded()))
        return UUIDv7Generator.format(
            milliseconds: milliseconds, counter: UInt16(number(13..<16)), tail: number(16..<32))
    }
}
