import ArgumentParser
import Foundation
import QuireCore
import QuireStore

struct HistoryCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Every version of an item this device has seen or made, newest first.",
        discussion:
            "Each line says when, where the version came from (local, import, remote, merge, resolve) and what changed."
    )

    @Argument(help: ArgumentHelp("The item's id or a unique prefix of it.", valueName: "id"))
    var id: String

    @Flag(help: "Print one JSON array: {seq, recordedAt, origin, op, item} per version.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        let versions = try store.history(of: fullID)
        if json {
            out.write("[")
            for (index, version) in versions.enumerated() {
                out.append { bytes in
                    bytes.append(contentsOf: Array((index == 0 ? "\n" : ",\n").utf8))
                    bytes.append(
                        contentsOf: Array(
                            "{\"seq\":\(version.seq),\"recordedAt\":\"\(StoreTime.string(from: version.recordedAt))\",\"origin\":\"\(version.origin.rawValue)\",\"op\":"
                                .utf8))
                    if let op = version.opID {
                        CompactJSON.appendString(op, to: &bytes)
                    } else {
                        bytes.append(contentsOf: Array("null".utf8))
                    }
                    bytes.append(contentsOf: Array(",\"item\":".utf8))
                    ItemJSON.append(version.item, to: &bytes)
                    bytes.append(125)
                }
            }
            out.line(versions.isEmpty ? "]" : "\n]")
            return
        }
        let terminal = Terminal()
        for (index, version) in versions.enumerated() {
            let older = index + 1 < versions.count ? versions[index + 1].item : nil
            let when = terminal.paint(LocalTime.string(version.recordedAt), .dim)
            out.line(
                "\(when)  \(Terminal.pad(version.origin.rawValue, to: 7)) \(Self.describe(version.item, since: older))")
        }
    }

    /// What changed between two versions, in a few words.
    static func describe(_ item: Item, since older: Item?) -> String {
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
        if item.rev != older.rev && parts.isEmpty { parts.append("revision \(older.rev) → \(item.rev)") }
        return parts.isEmpty ? "no field changes" : parts.joined(separator: "; ")
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private static func text(_ value: FieldValue) -> String {
        switch value {
        case .null: "none"
        case .string(let text): text
        case .bool(let flag): flag ? "yes" : "no"
        case .strings(let list): list.joined(separator: ", ")
        case .sha256(let hex): hex
        }
    }
}
