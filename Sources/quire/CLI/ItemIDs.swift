import ArgumentParser
import QuireStore

/// Turns ids and id prefixes typed on the command line into full ids: all of them, or an
/// error for the first that is unknown, ambiguous or malformed (so nothing changes).
enum ItemIDs {
    static func resolve(_ prefixes: [String], in store: AppDatabase) throws(StoreError) -> [String] {
        var seen = Set<String>()
        var ids: [String] = []
        for prefix in prefixes {
            let id = try store.resolve(prefix)
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    static func resolve(_ prefix: String, in store: AppDatabase) throws(StoreError) -> String {
        try store.resolve(prefix)
    }
}

extension ItemIDs {
    /// What every command says of an id argument: the short id a person reads in the list
    /// comes first (SPEC: IDs on the command line); full ids and their prefixes are for scripts.
    static func help(_ what: String = "The item's id") -> ArgumentHelp {
        ArgumentHelp("\(what): the short id the list shows, the full id, or a unique prefix of it.", valueName: "id")
    }

    /// The same for a command that takes several ids.
    static func help(many what: String) -> ArgumentHelp {
        ArgumentHelp("Ids of \(what): short ids as the list shows them, full ids, or unique prefixes.", valueName: "id")
    }
}
