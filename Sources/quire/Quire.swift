import ArgumentParser

/// The `quire` command: with no subcommand, the TUI; with one, the scriptable CLI.
@main
struct Quire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Offline-first notes and tasks for the terminal."
    )

    func run() throws {
        try openTUI(help: Quire.helpMessage())
    }
}
