import ArgumentParser
import Synchronization

/// Parsing the command line without the argument parser's two trial parses for
/// `--generate-completion-script`.
///
/// `parseAsRoot` first parses every command line twice more, as two small commands that take
/// `--generate-completion-script` with and without a value: building their arguments by
/// reflection and checking them against the runtime's conformance records is about a quarter of
/// what `quire list` on an empty store executes. The parser skips that check for a command
/// that names a super command, so when no argument can be such a request, the root is parsed
/// once under that name. Whatever that parse throws (`--version`, a usage error) is thrown away
/// and the line parsed again as before, so that every message names plain `quire`; help is
/// written when its command runs, after the name is back.
enum RootParse {
    /// Whether `Quire.configuration` names a super command: only inside `command()`, on the
    /// main task, before any command runs.
    private static let fastParse = Atomic<Bool>(false)

    static var skipsCompletionCheck: Bool { fastParse.load(ordering: .relaxed) }

    /// The command the arguments ask for, as `Quire.parseAsRoot()` would return it.
    static func command(arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws -> any ParsableCommand {
        if !arguments.contains(where: mayAskForCompletions) {
            fastParse.store(true, ordering: .relaxed)
            let command = try? Quire.parseAsRoot(arguments)
            fastParse.store(false, ordering: .relaxed)
            if let command { return command }
        }
        return try Quire.parseAsRoot(arguments)
    }

    /// An argument the completion check or the shells' completion functions would act on.
    private static func mayAskForCompletions(_ argument: String) -> Bool {
        argument.hasPrefix("--generate-completion-script") || argument.hasPrefix("---")
    }
}
