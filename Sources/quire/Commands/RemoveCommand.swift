import ArgumentParser
import QuireCore
import QuireStore

#if canImport(Glibc)
    import Glibc
#endif

struct RemoveCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete items (they can be brought back with 'quire restore').",
        discussion: """
            A deleted item is a tombstone until purged; 'quire list --all' shows it.
            --purge deletes for good, after asking: the item is deleted on every device and \
            gone from this one (its history and drafts too). A delete that has not reached the \
            server yet keeps the tombstone here until the next sync sends it.
            """)

    @Argument(help: ItemIDs.help(many: "items"))
    var ids: [String]

    @Flag(help: "Delete for good, after asking (see below).")
    var purge = false

    @Flag(help: "With --purge: do not ask (for scripts).")
    var yes = false

    func validate() throws {
        if yes && !purge { throw ValidationError("--yes goes with --purge") }
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let fullIDs = try ItemIDs.resolve(ids, in: store)
        if purge {
            try purge(fullIDs, store: store, out: &out)
            return
        }
        let wasDeleted = try fullIDs.map { id throws(StoreError) in try store.item(id)?.deleted ?? false }
        let items = try store.delete(fullIDs)
        let shortIDs = try store.shortIDs(for: items)
        for (item, deleted) in zip(items, wasDeleted) {
            out.line("\(deleted ? "already deleted" : "deleted"): \(shortIDs[item.id] ?? item.id)  \(item.title)")
        }
    }

    /// Asks on a terminal; in a pipe `--yes` must say it, since nothing can be taken back.
    private func purge(_ ids: [String], store: AppDatabase, out: inout Output) throws {
        let items = try ids.compactMap { id throws(StoreError) in try store.item(id) }
        let shortIDs = try store.shortIDs(for: items)
        let names = items.map { "\(shortIDs[$0.id] ?? $0.id)  \($0.title)" }
        if !yes {
            guard Terminal.isInputTerminal else {
                throw CLIFailure.badInput("purging cannot be undone: add --yes to purge without being asked")
            }
            let what = names.count == 1 ? names[0] : "\(names.count) items"
            out.write("Delete \(what) for good, on every device? This cannot be undone. [y/N] ")
            out.flush()
            let answer = readLine()?.trimmingWhitespace().lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                out.line("Nothing purged.")
                return
            }
        }
        let outcomes = try store.purge(ids)
        for (name, outcome) in zip(names, outcomes) {
            switch outcome {
            case .gone: out.line("purged: \(name)")
            case .goneOnceSent: out.line("purged: \(name) (its tombstone goes once the next sync sends the delete)")
            }
        }
    }
}

struct RestoreCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring deleted items back.")

    @Argument(help: ItemIDs.help(many: "deleted items"))
    var ids: [String]

    func run(store: AppDatabase, out: inout Output) throws {
        let fullIDs = try ItemIDs.resolve(ids, in: store)
        let wasDeleted = try fullIDs.map { id throws(StoreError) in try store.item(id)?.deleted ?? false }
        let items = try store.restore(fullIDs)
        let shortIDs = try store.shortIDs(for: items)
        for (item, deleted) in zip(items, wasDeleted) {
            out.line("\(deleted ? "restored" : "not deleted"): \(shortIDs[item.id] ?? item.id)  \(item.title)")
        }
    }
}
