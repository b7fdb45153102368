import ArgumentParser
import QuireCore
import QuireStore

struct DoneCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark tasks done.",
        discussion: "All the given tasks change together, or none of them when one id is wrong or names a note.")

    @Argument(help: ItemIDs.help(many: "tasks"))
    var ids: [String]

    func run(store: AppDatabase, out: inout Output) throws {
        try StatusChange.run(ids: ids, done: true, store: store, out: &out)
    }
}

struct ReopenCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Mark done tasks open again.",
        discussion: "All the given tasks change together, or none of them when one id is wrong or names a note.")

    @Argument(help: ItemIDs.help(many: "tasks"))
    var ids: [String]

    func run(store: AppDatabase, out: inout Output) throws {
        try StatusChange.run(ids: ids, done: false, store: store, out: &out)
    }
}

/// What `done` and `reopen` share: resolve every id first, change all in one transaction.
enum StatusChange {
    static func run(ids: [String], done: Bool, store: AppDatabase, out: inout Output) throws {
        let fullIDs = try ItemIDs.resolve(ids, in: store)
        let before = try fullIDs.map { id throws(StoreError) in try store.item(id) }
        let after = try store.setDone(fullIDs, done)
        // A completed occurrence brought up its series' next one (or found it there): say
        // which and when, so a person sees the series go on.
        let nextOccurrences = try after.map { new throws(StoreError) -> Item? in
            guard done, let next = new.nextOccurrence(now: new.updatedAt), let stored = try store.item(next.id),
                !stored.deleted, !stored.done
            else { return nil }
            return stored
        }
        let shortIDs = try store.shortIDs(for: after + nextOccurrences.compactMap { $0 })
        for ((old, new), next) in zip(zip(before, after), nextOccurrences) {
            let verb = old?.done == new.done ? (done ? "already done" : "already open") : (done ? "done" : "reopened")
            out.line("\(verb): \(shortIDs[new.id] ?? new.id)  \(new.title)")
            if let next, let due = next.due {
                out.line("next: \(shortIDs[next.id] ?? next.id)  \(next.title)  due \(due)")
            }
        }
    }
}
