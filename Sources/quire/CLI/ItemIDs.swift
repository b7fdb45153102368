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
