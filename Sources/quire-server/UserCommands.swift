import ArgumentParser
import Foundation
import QuireServer

/// `quire-server user add|list`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage users.", subcommands: [Add.self, List.self])

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
                print("\(pad("NAME"))  TOKENS  ITEMS  CREATED")
                for user in users {
                    let tokens = String(user.tokens)
                    let items = String(user.items)
                    print(
                        "\(pad(user.name))  \(tokens)\(String(repeating: " ", count: max(0, 6 - tokens.count)))  \(items)\(String(repeating: " ", count: max(0, 5 - items.count)))  \(user.createdAt)"
                    )
                }
            }
        }
    }
}

/// `quire-server token add|revoke`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage tokens.", subcommands: [Add.self, Revoke.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue another token for a user (shown once).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var name: String

        func run() async throws {
            let name = self.name
            try await runAdmin(store) { admin in
                print(try await admin.addToken(userName: name))
                printError("issued a token for '\(name)'; it is shown only once")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke every token of a user.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user's name.") var name: String

        func run() async throws {
            let name = self.name
            try await runAdmin(store) { admin in
                let count = try await admin.revokeTokens(userName: name)
                print("revoked \(count) token\(count == 1 ? "" : "s") of '\(name)'")
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
