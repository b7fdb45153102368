import ArgumentParser
import Foundation
import QuireCore
import QuireServer

/// `quire-server user add|list`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage users.", subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user and print its token (shown once; only a hash is stored).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name (letters, digits, '.', '_', '-').") var name: String

        func run() async throws {
            let name = self.name
            try await runAdmin(store) { admin in
                let token = try await admin.addUser(name: name)
                print(token)
                printError("created user '\(name)'; the token above is shown only once")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await runAdmin(store) { admin in
                let users = try await admin.users()
                if users.isEmpty {
                    printError("no users yet; add one with 'quire-server user add NAME'")
                    return
                }
                let width = max(4, users.map(\.name.count).max() ?? 4)
                func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
                func column(_ text: String, _ width: Int) -> String {
                    text + String(repeating: " ", count: max(0, width - text.count))
                }
                print("\(pad("NAME"))  TOKENS  ITEMS  STORED    CREATED")
                for user in users {
                    print(
                        "\(pad(user.name))  \(column(String(user.tokens), 6))  \(column(String(user.items), 5))  \(column(ByteCount.text(user.storedBytes), 8))  \(user.createdAt)"
                    )
                }
            }
        }
    }
}

extension UserCommand {
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a user with every item, record and token of theirs (asks first).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var name: String
        @Flag(help: "Do not ask; remove at once.") var yes = false

        func run() async throws {
            let name = self.name
            let asking = !yes
            try await runAdmin(store) { admin in
                if asking {
                    let user = try await admin.user(named: name)
                    printError(
                        "this removes user '\(name)' with \(user.items) items and \(user.tokens) tokens, for good; type the name to confirm:"
                    )
                    guard readLine()?.trimmingCharacters(in: .whitespaces) == name else {
                        printError("nothing removed")
                        throw ExitCode(1)
                    }
                }
                let removed = try await admin.removeUser(name: name)
                print("removed user '\(name)' (\(removed.items) items, \(removed.tokens) tokens)")
            }
        }
    }
}

/// `quire-server token add|list|revoke`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage tokens (one per device).",
        subcommands: [Add.self, List.self, Revoke.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue another token for a user (shown once).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var user: String
        @Option(help: "The device it is for (e.g. laptop), so it can be revoked alone.") var name: String?

        func run() async throws {
            let (user, name) = (self.user, self.name)
            try await runAdmin(store) { admin in
                print(try await admin.addToken(userName: user, name: name))
                printError("issued a token for '\(user)'\(name.map { " (\($0))" } ?? ""); it is shown only once")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's tokens (never the tokens themselves).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var user: String

        func run() async throws {
            let user = self.user
            try await runAdmin(store) { admin in
                let tokens = try await admin.tokens(userName: user)
                guard !tokens.isEmpty else {
                    printError("'\(user)' has no tokens; issue one with 'quire-server token add \(user) --name DEVICE'")
                    return
                }
                let width = max(4, tokens.map { ($0.name ?? "-").count }.max() ?? 4)
                func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
                print("ID            \(pad("NAME"))  CREATED")
                for token in tokens { print("\(token.id)  \(pad(token.name ?? "-"))  \(token.createdAt)") }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke one token of a user (--name or --id), or every one.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var user: String
        @Option(help: "Revoke the token issued with this --name.") var name: String?
        @Option(help: "Revoke the token whose id ('token list') starts with these hex digits (4 or more).")
        var id: String?

        func validate() throws {
            guard name == nil || id == nil else { throw ValidationError("give --name or --id, not both") }
            if let id, id.count < 4 || !id.allSatisfy(\.isHexDigit) {
                throw ValidationError("--id takes 4 or more hex digits of an id 'quire-server token list' shows")
            }
        }

        func run() async throws {
            let user = self.user
            let selector: TokenSelector = name.map { .name($0) } ?? id.map { .idPrefix($0) } ?? .all
            try await runAdmin(store) { admin in
                let count = try await admin.revokeTokens(userName: user, matching: selector)
                print("revoked \(count) token\(count == 1 ? "" : "s") of '\(user)'")
            }
        }
    }
}

/// `quire-server epoch show|renew`.
struct EpochCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "epoch", abstract: "Show or renew the database epoch.", subcommands: [Show.self, Renew.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the database's epoch.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await runAdmin(store) { admin in print(try await admin.epoch()) }
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Give the database a new epoch after restoring it from a backup: every device resyncs and re-sends what the backup lacks."
        )
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await runAdmin(store) { admin in print(try await admin.renewEpoch()) }
        }
    }
}
