import ArgumentParser
import Foundation
import QuireCore
import QuireSync

/// `quire remote set|show|remove`: the server this device syncs with.
struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Set, show or remove the sync server.",
        subcommands: [RemoteSetCommand.self, RemoteShowCommand.self, RemoteRemoveCommand.self],
        defaultSubcommand: RemoteShowCommand.self)
}

struct RemoteSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Sync with the server at URL (the token goes to the credentials file, mode 0600).",
        discussion: """
            When the server answers, the token is checked at once, and a token it refuses is \
            said on standard error (it is saved all the same). Offline, nothing is checked and \
            the exit status is 0.
            """)

    @Argument(help: ArgumentHelp("The server's URL, such as https://sync.example.com.", valueName: "url"))
    var url: String

    @Option(help: "The token 'quire-server user add' printed.")
    var token: String?

    @Flag(help: "Read the token from standard input (keeps it out of the shell history).")
    var tokenStdin = false

    func validate() throws {
        guard (token == nil) != !tokenStdin else {
            throw ValidationError("give the token with either --token TOKEN or --token-stdin")
        }
    }

    func run() async throws {
        let secret: String
        if let token {
            secret = token
        } else {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            secret = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        }
        let settings = SyncCommandSupport.settings()
        do {
            try settings.setRemote(SyncRemote(url: url, token: secret))
        } catch {
            throw CLIFailure.badInput(error.description)
        }
        var out = Output()
        out.line("Remote set to \(url); the token is stored in \(settings.credentialsPath)")
        out.flush()
        if let warning = await TokenCheck.warning(url: url, token: secret) { StandardError.line("quire: " + warning) }
    }
}

/// Asks the server whether it takes a token, with one small authenticated read (the first
/// item of the snapshot), so that a mistyped token is said when it is set rather than at the
/// first sync. Only a refusal is worth a word: a server that cannot be reached now may be
/// reachable later.
enum TokenCheck {
    static func warning(url: String, token: String) async -> String? {
        // A refused connection answers at once; a busy server gets as long as a person would
        // wait at a prompt before the check gives up without a word.
        let transport = HTTPSyncTransport(baseURL: url, token: token, timeout: 20, now: { Date() })
        do {
            _ = try await transport.snapshot(after: nil, limit: 1)
            return nil
        } catch {
            guard case .status(let code, _, _) = error, code == 401 || code == 403 else { return nil }
            return "the server refused this token (\(code)); it is saved, but sync will fail until you set the "
                + "right one with 'quire remote set \(url) --token TOKEN'"
        }
    }
}

struct RemoteShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the sync server (never the token).")

    func run() throws {
        let settings = try SyncCommandSupport.checkedSettings()
        var out = Output()
        if let url = settings.remoteURL() {
            out.line("url    \(url)")
            out.line(
                "token  "
                    + (settings.hasToken ? "stored in \(settings.credentialsPath)" : "missing: run 'quire remote set'"))
        } else {
            out.line("No remote set: Quire works locally. Sync with 'quire remote set URL --token TOKEN'.")
        }
        out.flush()
    }
}

struct RemoteRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Stop syncing: forget the server and its token (local items stay).")

    func run() throws {
        do {
            try SyncCommandSupport.settings().removeRemote()
        } catch {
            throw CLIFailure.badInput(error.description)
        }
        var out = Output()
        out.line("Remote removed; everything stays on this device.")
        out.flush()
    }
}
