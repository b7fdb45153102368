/// Tab in the file prompts: the typed path's folder is listed, and the names in it that start
/// with what follows the last `/` complete it. Pure: the runtime lists the folder.
public enum PathCompletion {
    /// The folder part of typed text (up to and including its last `/`), and the name being
    /// typed after it: `~/Docs/tri` is `~/Docs/` and `tri`.
    public static func split(_ text: String) -> (folder: String, partial: String) {
        guard let slash = text.lastIndex(of: "/") else { return ("", text) }
        return (String(text[...slash]), String(text[text.index(after: slash)...]))
    }

    /// Where typed text points: `~` and `~/…` are in the home folder, a relative path is taken
    /// from `workingDirectory`, and an empty one is `workingDirectory` itself.
    public static func resolve(_ text: String, home: String, workingDirectory: String) -> String {
        if text == "~" { return home }
        if text.hasPrefix("~/") { return joined(home, String(text.dropFirst(2))) }
        if text.hasPrefix("/") { return text }
        return text.isEmpty ? workingDirectory : joined(workingDirectory, text)
    }

    /// The names of a folder's entries that complete `partial`: those that start with it
    /// (hidden ones only when it starts with a dot), folders with a `/` after them, sorted.
    public static func candidates(_ partial: String, among entries: [(name: String, isFolder: Bool)]) -> [String] {
        entries.filter { $0.name.hasPrefix(partial) && (partial.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .map { $0.isFolder ? $0.name + "/" : $0.name }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// What Tab makes of `typed` given the candidates of its folder: the one candidate whole,
    /// or what several share; nil when there is none. `~` alone becomes the home folder's `~/`.
    public static func completed(_ typed: String, candidates: [String]) -> String? {
        if typed == "~" { return "~/" }
        guard let first = candidates.first else { return nil }
        let folder = split(typed).folder
        guard candidates.count > 1 else { return folder + first }
        var shared = Array(first)
        for word in candidates.dropFirst() {
            shared = Array(zip(shared, word).prefix { $0 == $1 }.map(\.0))
        }
        return folder + String(shared)
    }

    private static func joined(_ folder: String, _ rest: String) -> String {
        folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
    }
}
