import ArgumentParser
import QuireCore
import QuireStore

struct DoneCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark tasks done.",
        discussion: "All the given tasks change together, or none of them when one id is wrong or names a note.")

    @Argument(help: ArgumentHelp("Ids or unique id prefixes of tasks.", valueName: "id"))
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

    @Argument(help: ArgumentHelp("Ids or unique id prefixes of tasks.", valueName: "id"))
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
        let shortIDs = try store.shortIDs(for: after)
        for (old, new) in zip(before, after) {
            let verb = old?.done == new.done ? (done ? "already done" : "already open") : (done ? "done" : "reopened")
            out.line("\(verb): \(shortIDs[new.id] ?? new.id)  \(new.title)")
        }
    }
}
