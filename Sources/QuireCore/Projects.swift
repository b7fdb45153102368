/// Projects (SPEC: Items): one hierarchical name for a task's project and a note's notebook,
/// its parts joined by dots (`home.garden`). A filter's `project:home` names `home` and every
/// project under it; names match without regard to the case of ASCII letters, as tags do.
public enum Projects {
    /// Whether `project` is `name` or lies under it (`home.garden` under `home`, not `homework`).
    public static func contains(_ project: String?, within name: String) -> Bool {
        guard let project else { return false }
        let folded = project.asciiCaseFolded
        let parent = name.asciiCaseFolded
        guard folded.count >= parent.count, folded.starts(with: parent) else { return false }
        return folded.count == parent.count || folded[parent.count] == UInt8(ascii: ".")
    }

    /// `name` and every project above it, nearest last: `home.garden` → `home`, `home.garden`.
    public static func lineage(of name: String) -> [String] {
        var names: [String] = []
        var prefix = ""
        for part in name.split(separator: ".", omittingEmptySubsequences: false) {
            prefix = prefix.isEmpty ? String(part) : prefix + "." + part
            names.append(prefix)
        }
        return names
    }
}
