import ArgumentParser
import QuireCore
import QuireStore

struct ShowCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one item: its fields, then its body.")

    @Argument(help: ItemIDs.help())
    var id: String

    @Flag(help: "Print the item as one JSON object.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        guard let item = try store.item(fullID) else { throw StoreError.notFound(id: fullID) }
        if json {
            JSONOutput.item(&out, item)
            return
        }
        let terminal = Terminal()
        out.line(terminal.paint(item.title, .title) + (item.deleted ? " (deleted)" : ""))
        let shortID = try store.shortIDs(for: [item])[item.id] ?? item.id
        var rows: [(String, String)] = [("id", "\(shortID)  (\(item.id))")]
        rows.append(("kind", item.kind == .task ? "task, \(item.done ? "done" : "open")" : "note"))
        if let doneAt = item.doneAt { rows.append(("done at", LocalTime.string(doneAt))) }
        if !item.tags.isEmpty { rows.append(("tags", item.tags.map(DetailsLine.tagWord).joined(separator: " "))) }
        if let project = item.project { rows.append(("project", project)) }
        if let due = item.due { rows.append(("due", due.description)) }
        if let recur = item.recur { rows.append(("recur", recur.description)) }
        if let wait = item.wait { rows.append(("wait", wait.description)) }
        if let scheduled = item.scheduled { rows.append(("scheduled", scheduled.description)) }
        if item.priority != .none { rows.append(("priority", item.priority.rawValue)) }
        if item.pinned { rows.append(("pinned", "yes")) }
        rows.append(("created", LocalTime.string(item.createdAt)))
        rows.append(("updated", LocalTime.string(item.updatedAt)))
        rows.append(("sync", SyncBadge.description(of: item)))
        for (name, value) in rows {
            out.line(terminal.paint(Terminal.pad(name, to: 9), .dim) + " " + value)
        }
        if !item.body.isEmpty {
            out.line()
            out.write(item.body)
            if !item.body.hasSuffix("\n") { out.line() }
        }
    }
}
