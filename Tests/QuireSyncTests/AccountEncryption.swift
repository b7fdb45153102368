import Foundation
import GRDB
import QuireCrypto
import QuireProtocol
import QuireSync
import Testing

/// How a test's account syncs: in plain text, or encrypted end to end (SPEC "End-to-end
/// encryption"). The suites that kill, restart, restore and lose answers run both ways with the
/// same assertions: the devices merge the same opened items whatever the server keeps.
enum AccountEncryption: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case plain, encrypted

    var testDescription: String { rawValue }
}

/// What a server may never keep of an item: the content of a deleted one (encrypted or not),
/// and any content in plain text once the account is encrypted. Nil when the item is as it
/// should be. The simulation and the suites on a real server judge the server's rows by this.
func contentLeak(in item: ChangeItem, encrypted: Bool) -> String? {
    if item.deleted, !item.isContentless { return "the server keeps the content of deleted item \(item.id)" }
    if encrypted, item.sealed == nil, !item.isContentless {
        return "the encrypted account's server holds item \(item.id) in plain text"
    }
    return nil
}

extension SyncTestServer {
    /// Turns the account of `token` encrypted before it holds anything, as `quire encryption
    /// enable` does: a new key ring stored through the key ring endpoint. Its derivation takes
    /// the fastest parameters (no test here is about the passphrase), and its data keys are kept
    /// for every device of the test to hold.
    func encryptAccount(token: String) async throws {
        let ring = try KeyRing.create(passphrase: "a test passphrase", parameters: .minimum)
        let transport = HTTPSyncTransport(baseURL: baseURL, token: token, timeout: Self.clientTimeout, now: { Date() })
        let version = try await transport.storeKeyRing(KeyRingDocument(version: 0, keyring: ring.ring))
        #expect(version == 1, "the account's first key ring")
        keys = ring.unlocked.dataKeys
    }

    /// A started server with one user whose account is plain or encrypted, and that user's token.
    static func running(
        user: String = "ann", _ encryption: AccountEncryption, busyTimeout: TimeInterval = 10
    ) async throws -> (SyncTestServer, String) {
        let (server, token) = try await running(user: user, busyTimeout: busyTimeout)
        if encryption == .encrypted { try await server.encryptAccount(token: token) }
        return (server, token)
    }

    /// Gives a home the account's data keys (when it is encrypted), as `quire encryption unlock`
    /// leaves them: in the credentials file beside the token.
    func handKeys(toHome home: String) throws {
        guard let keys else { return }
        try SyncSettings(configPath: home + "/config.toml", credentialsPath: home + "/credentials").setDataKeys(keys)
    }

    /// Records an issue for every item, tombstone or stored answer of the server that shows what
    /// it may not keep (`contentLeak`): read from its database file, as anyone holding it could.
    /// The account counts as encrypted when the test holds its keys, unless `encrypted` says.
    func expectNoContentLeaks(encrypted: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let rows = try DatabaseQueue(path: databasePath, configuration: readOnly)
        defer { try? rows.close() }
        let (docs, answers) = try rows.read { db in
            (
                try String.fetchAll(db, sql: "SELECT doc FROM items"),
                try String.fetchAll(db, sql: "SELECT result FROM op_results")
            )
        }
        #expect(!docs.isEmpty, "the server holds items", sourceLocation: sourceLocation)
        let decoder = JSONDecoder()
        var items = try docs.map { try decoder.decode(ChangeItem.self, from: Data($0.utf8)) }
        items += try answers.compactMap { try decoder.decode(OpResult.self, from: Data($0.utf8)).current }
        for leak in items.compactMap({ contentLeak(in: $0, encrypted: encrypted ?? (keys != nil)) }) {
            Issue.record(Comment(rawValue: leak), sourceLocation: sourceLocation)
        }
    }
}
