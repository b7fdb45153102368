import Foundation
import QuireServer
import QuireTestSupport
import Testing

/// A server restored from a backup older than the account's encryption: the key ring and every
/// sealed version since are gone, the items the backup had are plain again. The built `quire`
/// on two homes and a real server on a loopback port.
@Suite(.serialized) struct SyncRestoreEncryptionTests {
    static let passphrase = "a passphrase for the restore"

    func titles(on home: String) async throws -> Set<String> {
        let listed = try await QuireBinary.must(["list", "--all", "--json"], home: home)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        return Set(items.compactMap { $0["title"] as? String })
    }

    /// The device that holds the keys is refused in the server's words (nothing turns plain,
    /// its queue waits), then `quire encryption enable`, as they say, encrypts the account
    /// again around the keys the devices hold: what the restore lost comes back sealed, the
    /// other device reads on without unlocking again, and a new one unlocks and reads it all.
    @Test func aRestoreFromBeforeTheEncryptionIsEncryptedAgainAndLosesNothing() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (laptop, phone) = (try QuireBinary.makeHome("restore-keys"), try QuireBinary.makeHome("restore-keys"))
        defer { for home in [laptop, phone] { try? FileManager.default.removeItem(atPath: home) } }
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: laptop)
        try await QuireBinary.must(["add", "Written before the encryption"], home: laptop)
        try await QuireBinary.must(["sync"], home: laptop)
        await server.stop()
        try server.backUp(to: "plain.db")
        try await server.start()

        try await QuireBinary.must(
            ["encryption", "enable", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        try await QuireBinary.must(["add", "Written after the encryption"], home: laptop)
        try await QuireBinary.must(["sync"], home: laptop)
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: phone)
        try await QuireBinary.must(["encryption", "unlock", "--passphrase-stdin"], home: phone, stdin: Self.passphrase)
        try await QuireBinary.must(["sync"], home: phone)

        await server.stop()
        try server.restore(from: "plain.db")
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()

        let refused = try await QuireBinary.execute(["sync"], home: laptop)
        #expect(refused.status != 0, "the server holds no key ring: \(refused.stderr)")
        #expect(refused.stderr.contains("quire encryption enable"), "\(refused.stderr)")
        #expect(try await titles(on: laptop).count == 2, "nothing is lost on the device")

        try await QuireBinary.must(
            ["encryption", "enable", "--passphrase-stdin"], home: laptop, stdin: Self.passphrase)
        try await QuireBinary.must(["add", "Written after the restore"], home: laptop)
        try await QuireBinary.must(["sync"], home: laptop)
        try await QuireBinary.must(["sync"], home: phone)
        let expected: Set = [
            "Written before the encryption", "Written after the encryption", "Written after the restore",
        ]
        #expect(try await titles(on: phone) == expected, "the phone's keys still open everything")
        #expect(try await titles(on: laptop) == expected)
        let tablet = try QuireBinary.makeHome("restore-keys")
        defer { try? FileManager.default.removeItem(atPath: tablet) }
        try await QuireBinary.must(["remote", "set", server.baseURL, "--token", token], home: tablet)
        try await QuireBinary.must(
            ["encryption", "unlock", "--passphrase-stdin"], home: tablet, stdin: Self.passphrase)
        try await QuireBinary.must(["sync"], home: tablet)
        #expect(try await titles(on: tablet) == expected)
        try server.expectNoContentLeaks(encrypted: true)
    }
}
