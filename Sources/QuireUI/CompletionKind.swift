import QuireCore

/// What Tab completes: a tag in the tag prompt, a title after `[[` in the editor's body, a path
/// in the file prompts. One
/// mechanism for both: `Effect.complete` asks the store, `Message.completionsFound` answers
/// before the next key is read, and one candidate fills the text while several fill what they
/// share and are listed in the status bar.
public enum CompletionKind: Hashable, Sendable {
    case tag
    case title
    /// A file or folder of the local file system (the file prompts); folders end in `/`.
    case path

    /// What all the words start with, compared without regard to the case of ASCII letters (as
    /// titles and tags match), spelled as the first word spells it.
    static func shared(_ words: [String]) -> String {
        guard var shared = words.first.map(Array.init) else { return "" }
        for word in words.dropFirst() {
            let length = zip(shared, word).prefix { WikiLink.key(String($0)) == WikiLink.key(String($1)) }.count
            shared = Array(shared.prefix(length))
        }
        return String(shared)
    }

    /// The status bar's list of candidates: the first six, then `…`.
    static func listed(_ words: [String]) -> String {
        words.prefix(6).joined(separator: " ") + (words.count > 6 ? " …" : "")
    }
}
