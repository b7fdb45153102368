import ArgumentParser
import Foundation
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

    /// Every file the server writes (the database, its `-wal` and `-shm`, lock files, backups)
    /// holds every user's notes and token hashes: readable by the server's own account only,
    /// whatever umask it was started with.
    static func main() async {
        umask(0o077)
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
