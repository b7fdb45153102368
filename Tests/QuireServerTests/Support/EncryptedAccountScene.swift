import Foundation
import QuireTestSupport
import Testing

/// Where the end-to-end encryption tests start: a live server with an encrypted account (ann,
/// whose laptop has just turned encryption on) and a plain one (bob) as the control; ann's
/// phone and bob's device exist but are not set up. `canary` is the word that must never reach
/// the server's files; `control`, written on the plain account, must (so a scan can fail).
struct EncryptedAccountScene {
    typealias Device = BackupTests.Device

    let fixture: LiveFixture
    let laptop: Device
    let phone: Device
    let plain: Device
    let canary: String
    let control: String
    /// What `quire encryption enable` printed on the laptop (the recovery key among it).
    let enabled: (status: Int32, out: String, err: String)

    var server: ServerProcess { fixture.server }
    var ann: String { fixture.token }
    var bob: String { fixture.tokens["bob"] ?? "" }

    /// Starts it; `word` names the canary and the control words.
    static func start(word: String) async throws -> EncryptedAccountScene {
        let fixture = try await LiveFixture.start(
            ["--rate-limit", "0", "--log-level", "debug"], users: ["ann", "bob"])
        let (laptop, phone, plain) = (try Device(), try Device(), try Device())
        let suffix = UUID().uuidString.prefix(8).lowercased()
        try await laptop.must(["remote", "set", fixture.server.baseURL, "--token", fixture.token])
        let enabled = try await EncryptionEndToEndTests.run(
            laptop, ["encryption", "enable", "--passphrase-stdin"], stdin: EncryptionEndToEndTests.passphrase)
        return EncryptedAccountScene(
            fixture: fixture, laptop: laptop, phone: phone, plain: plain, canary: "zq\(word)canary" + suffix,
            control: "zq\(word)control" + suffix, enabled: enabled)
    }

    /// Removes the devices, stops the server and removes its folder.
    func finish() {
        for device in [laptop, phone, plain] { device.remove() }
        Task { await fixture.finish() }
    }
}
