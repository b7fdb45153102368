/// The argument parser's usage errors in the plain words the rest of Quire uses: "--open and
/// --done cannot be used together", not "Value to be set with flag … had already been set".
///
/// Messages it does not know pass through unchanged, so a newer parser can only read worse,
/// never wrong.
enum UsageMessage {
    /// `message` reworded; `arguments` are the words after `quire`, to tell an unknown command
    /// from an extra word after a known one.
    static func plain(_ message: String, arguments: [String]) -> String {
        if case (let duplicate, let previous)? = twoQuoted(
            message, "Value to be set with flag '", "' had already been set with flag '")
        {
            return duplicate == previous
                ? "\(duplicate) is given twice" : "\(previous) and \(duplicate) cannot be used together"
        }
        if let word = quoted(message, after: "Unexpected argument '") {
            if arguments.first(where: { !$0.hasPrefix("-") }) == word { return "there is no command '\(word)'" }
            return "'\(word)' was not expected here"
        }
        if let name = quoted(message, after: "Missing expected argument '") {
            return "the \(bare(name)) is missing"
        }
        if let option = quoted(message, after: "Missing value for '") {
            let parts = option.split(separator: " ", maxSplits: 1).map(String.init)
            return parts.count == 2 ? "\(parts[0]) needs a value: \(bare(parts[1]))" : "\(option) needs a value"
        }
        if let option = quoted(message, after: "The option '"), message.contains("does not take any value") {
            return "\(option) takes no value"
        }
        return message
    }

    /// The text between `prefix` and the next `'`, when `message` starts with `prefix`.
    private static func quoted(_ message: String, after prefix: String) -> String? {
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    private static func twoQuoted(_ message: String, _ prefix: String, _ middle: String) -> (String, String)? {
        guard let first = quoted(message, after: prefix) else { return nil }
        let rest = String(message.dropFirst(prefix.count + first.count))
        guard let second = quoted(rest, after: middle) else { return nil }
        return (first, second)
    }

    /// `<title> ...` → `title`.
    private static func bare(_ synopsis: String) -> String {
        var text = synopsis
        if text.hasSuffix(" ...") { text.removeLast(4) }
        if text.hasPrefix("<") && text.hasSuffix(">") { text = String(text.dropFirst().dropLast()) }
        return text
    }
}
