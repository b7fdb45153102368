import Foundation
import QuireCore
import QuireStore

/// The bench's items as Taskwarrior's `task export` writes them, for `task import`: the same
/// titles, tags, open/done split, due dates, priorities, dates and ids as the Quire store.
///
/// A Quire note becomes a pending task (Taskwarrior has no notes) and a body becomes the
/// task's one annotation, so that both tools hold, list and search the same text.
struct TaskwarriorExport {
    private var bytes: [UInt8] = Array("[".utf8)
    private var isEmpty = true
    private let now = Date()

    /// Adds one task; an entry without an id gets one from Taskwarrior on import.
    mutating func append(_ entry: ImportEntry) {
        bytes.append(contentsOf: Array((isEmpty ? "\n{" : ",\n{").utf8))
        isEmpty = false
        if let id = entry.id { field("uuid", id) }
        field("description", entry.title)
        let created = entry.createdAt ?? now
        field("entry", Self.timestamp(created))
        if entry.done {
            field("status", "completed")
            field("end", Self.timestamp(entry.doneAt ?? entry.updatedAt ?? created))
        } else {
            field("status", "pending")
        }
        // Taskwarrior's dates are instants; a Quire due date is a day, taken at its midnight (UTC).
        if let project = entry.project { field("project", project) }
        if let due = entry.due { field("due", due.description.replacingOccurrences(of: "-", with: "") + "T000000Z") }
        switch entry.priority {
        case .none: break
        case .low: field("priority", "L")
        case .medium: field("priority", "M")
        case .high: field("priority", "H")
        }
        if !entry.tags.isEmpty {
            bytes.append(contentsOf: Array(",\"tags\":".utf8))
            CompactJSON.appendStrings(entry.tags, to: &bytes)
        }
        if !entry.body.isEmpty {
            bytes.append(contentsOf: Array(",\"annotations\":[{\"entry\":\"\(Self.timestamp(created))\"".utf8))
            field("description", entry.body)
            bytes.append(UInt8(ascii: "}"))
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The whole file: a JSON array, as `task export` writes it.
    var data: Data { Data(bytes + Array("\n]\n".utf8)) }

    /// One string field, after the first (`uuid` or `description`, which open the object).
    private mutating func field(_ name: String, _ value: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        CompactJSON.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        CompactJSON.appendString(value, to: &bytes)
    }

    /// Taskwarrior's date form in its JSON: `20260101T090000Z`, always UTC.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// A private Taskwarrior: its own rc file and data folder in a temporary folder, so that the
/// bench never reads or writes the user's ~/.taskrc or ~/.task.
struct TaskwarriorHome {
    let folder: String
    var rcFile: String { folder + "/taskrc" }
    var dataFolder: String { folder + "/data" }

    /// Settings that keep `task` from asking or decorating (no confirmations, no colour, no
    /// headers or footnotes), with hooks and recurrence off (Quire has neither), case-blind
    /// search as Quire's, and no width limit, as Quire never cuts a line in a pipe. The garbage
    /// collection that renumbers tasks stays on, as it is by default.
    static let settings = [
        "confirmation=off", "verbose=nothing", "color=off", "hooks=off", "recurrence=off",
        "search.case.sensitive=no", "defaultwidth=0", "gc=on",
    ]

    func create() throws {
        try FileManager.default.createDirectory(atPath: dataFolder + "/hooks", withIntermediateDirectories: true)
        let lines = ["data.location=\(dataFolder)", "hooks.location=\(dataFolder)/hooks"] + Self.settings
        try (lines.joined(separator: "\n") + "\n").write(toFile: rcFile, atomically: true, encoding: .utf8)
    }

    /// `task` on this home; HOME points here too, so nothing can fall back to the user's files.
    func process(_ task: String) -> BenchProcess {
        BenchProcess(executable: task, environment: ["TASKRC": rcFile, "TASKDATA": dataFolder, "HOME": folder])
    }
}
