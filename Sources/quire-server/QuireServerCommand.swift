import ArgumentParser

/// `quire-server`: the Quire sync server and its operator commands.
@main
struct QuireServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire-server",
        abstract: "The Quire sync server (HTTP, JSON; SQLite or PostgreSQL).",
        version: "0.1.0",
        subcommands: [Serve.self, UserCommand.self, TokenCommand.self, EpochCommand.self])
}
