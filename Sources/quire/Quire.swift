import ArgumentParser
import Foundation

/// The `quire` command: with no subcommand, the TUI; with one, the scriptable CLI.
///
/// `main()` reports every failure as one line on stderr, `quire: <what went wrong>`, and exits
/// with SPEC's codes: usage errors are 1 (not the argument parser's 64), and store errors map
/// through `CLIFailure`.
@main
struct Quire: AsyncParsableCommand {
    static let localCommands: [any ParsableCommand.Type] = [
        AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, DoneCommand.self,
        ReopenCommand.self, RemoveCommand.self, RestoreCommand.self, SearchCommand.self, HistoryCommand.self,
        ExportCommand.self, ImportCommand.self, UndoCommand.self, NextCommand.self, AgendaCommand.self,
        ProjectsCommand.self, TagsCommand.self, LinksCommand.self, BacklinksCommand.self, AttachCommand.self,
        AttachmentsCommand.self, AttachmentCommand.self, DetachCommand.self,
    ]

    static var configuration: CommandConfiguration {
        RootParse.skipsCompletionCheck ? fastConfiguration : standardConfiguration
    }

    /// The same, naming a super command: see `RootParse`. No message is ever made from it.
    static let fastConfiguration = {
        var configuration = standardConfiguration
        configuration._superCommandName = "quire"
        return configuration
    }()

    static let standardConfiguration = CommandConfiguration(
        commandName: "quire",
        abstract: "Offline-first notes and tasks for the terminal.",
        discussion: """
            With no subcommand, opens the full-screen app. Every subcommand works offline on \
            the local store. An item's id is the short id the list shows; full ids and unique \
            prefixes of them work too.

            Data lives in $QUIRE_HOME, else $XDG_DATA_HOME/quire, else ~/.local/share/quire.
            Exit codes: 0 success, 1 bad input (nothing changed), 2 not found, 3 server \
            unreachable, 4 authentication refused, 5 items need review, 6 database unusable.
            """,
        version: QuireVersion.current,
        subcommands: localCommands + syncCommands
    )

    func run() async throws {
        try openTUI(help: Quire.helpMessage())
    }

    static func main() async {
        do {
            var command = try RootParse.command()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            report(error)
        }
    }

    /// Prints the one-line error and exits with its SPEC code; help and completion requests go
    /// to the argument parser, which prints them and exits 0.
    static func report(_ error: any Error) -> Never {
        if let failure = CLIFailure(error) {
            StandardError.line("quire: \(failure.message)")
            Foundation.exit(failure.code.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success || error is ExitCode { exit(withError: error) }
        var message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = message.split(separator: "\n").first { message = String(first) }
        if message.hasPrefix("Error: ") { message = String(message.dropFirst(7)) }
        if code == .validationFailure {
            message = UsageMessage.plain(message, arguments: Array(CommandLine.arguments.dropFirst()))
            StandardError.line("quire: \(message) (see 'quire help')")
            Foundation.exit(QuireExitCode.badInput.rawValue)
        }
        StandardError.line("quire: \(message)")
        Foundation.exit(code.rawValue == 0 ? 1 : code.rawValue)
    }
}
