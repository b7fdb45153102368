import ArgumentParser
import QuireCore
import QuireStore

struct RemoveCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete items (they can be brought back with 'quire restore').",
        discussion: "A deleted item is a tombstone until purged; 'quire list --all' shows it.")

    @Argument(help: ArgumentHelp("Ids or unique id prefixes.", valueName: "id"))
    var ids: [String]

    func run(store: AppDatabase, out: inout Output) throws {
        let fullIDs = try ItemIDs.resolve(ids, in: store)
        let wasDeleted = try fullIDs.map { id throws(StoreError) in try store.item(id)?.deleted ?? false }
        let items = try store.delete(fullIDs)
        let shortIDs = try store.shortIDs(for: items)
        for (item, deleted) in zip(items, wasDeleted) {
            out.line("\(deleted ? "already deleted" : "deleted"): \(shortIDs[item.id] ?? item.id)  \(item.title)")
        }
    }
}

struct RestoreCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring deleted items back.")

    @Argument(help: ArgumentHelp("Ids or unique id prefixes of deleted items.", valueName: "id"))
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
