import ArgumentParser
import Foundation
import QuireCore
import QuireStore

/// `quire conflicts`: the items that need review and what differs.
struct ConflictsCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List the items that need review, with the fields in conflict.")

    @Flag(help: "Print the conflicts as one JSON array (with base, local and remote versions).")
    var json = false

    struct Entry: Encodable {
        var id: String
        var title: String
        var fields: [String]
        var deleted: String?
        var detectedAt: String
        var base: Item?
        var local: Item
        var remote: Item
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let records = try store.conflicts()
        let entries = try records.map { record in
            let current = try store.item(record.itemID) ?? record.local
            let deleted: String? =
                record.remote.deleted && !current.deleted
                ? "deleted elsewhere, edited here"
                : record.local.deleted && !record.remote.deleted ? "deleted here, edited elsewhere" : nil
            return Entry(
                id: record.itemID, title: current.title, fields: record.fields.map(\.rawValue), deleted: deleted,
                detectedAt: Timestamp.string(from: record.detectedAt), base: record.base, local: current,
                remote: record.remote)
        }
        if json {
            try JSONOutput.encode(&out, entries)
            return
        }
        guard !entries.isEmpty else {
            out.line("No items need review.")
            return
        }
        let short = try store.shortIDs(for: entries.map(\.id))
        let terminal = Terminal()
        for entry in entries {
            let what =
                ([entry.deleted].compactMap { $0 }
                + (entry.fields.isEmpty ? [] : ["both changed " + entry.fields.joined(separator: ", ")]))
                .joined(separator: "; ")
            out.line(
                terminal.paint(short[entry.id] ?? entry.id, .dim) + "  " + entry.title + "  "
                    + terminal.paint(what, .dim))
        }
        out.line()
        out.line("Resolve with: quire resolve ID --keep local|remote|both, or --merged-file PATH")
    }
}
