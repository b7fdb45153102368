import ArgumentParser
import QuireServer

/// `quire-server`: the Quire sync server and its operator commands.
@main
struct QuireServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire-server",
        abstract: "The Quire sync server (HTTP, JSON; SQLite or PostgreSQL).",
        version: SchemaVersion.serverVersion,
        subcommands: [
            Serve.self, UserCommand.self, TokenCommand.self, EpochCommand.self, Backup.self, Restore.self, Migrate.self,
        ])
}
