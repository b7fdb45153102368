import Foundation
import QuireTestSupport
import Testing

/// The app on a device locked out of an encrypted account (SPEC: End-to-end encryption): the
/// built `quire` in tmux, the built `quire-server`, and another device that turned encryption
/// on. The status bar says how to unlock, `U` asks for the passphrase, a wrong one is refused
/// on the spot, the right one unlocks, and the sealed item arrives with no command run.
@Suite(.serialized, Tmux.required) struct TmuxUnlockTests {
    static let passphrase = "correct horse battery"

    @Test func uUnlocksALockedDeviceAndItsItemsArrive() throws {
        let (server, laptop, phone) = try TmuxSyncTests().twoDevices()
        defer {
            withExtendedLifetime(server) {}
            for device in [laptop, phone] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        #expect(try laptop.cli("add", "Sealed plans").status == 0)
        let enabled = try laptop.cli("encryption", "enable", "--passphrase-stdin", stdin: Self.passphrase)
        #expect(enabled.status == 0, "\(enabled.output)")

        let tmux = try Tmux(script: phone.script(), directory: phone.home)
        #expect(
            tmux.waitFor(timeout: 20) { $0.contains("encrypted: press U to unlock") },
            "the status bar tells the truth: \(tmux.capture())")
        #expect(!tmux.capture().contains("Sealed plans"))

        tmux.keys("U")
        #expect(tmux.waitFor { $0.contains("Passphrase:") })
        tmux.type("not the passphrase")
        #expect(!tmux.capture().contains("not the passphrase"), "a passphrase is never drawn")
        tmux.keys("Enter")
        #expect(
            tmux.waitFor(timeout: 20) { $0.contains("Wrong passphrase") && $0.contains("Nothing changed") },
            "\(tmux.capture())")
        #expect(tmux.capture().contains("Passphrase:"), "the prompt stays for another try")

        tmux.type(Self.passphrase)
        tmux.keys("Enter")
        #expect(tmux.waitFor(timeout: 20) { $0.contains("Sealed plans") }, "\(tmux.capture())")
        #expect(tmux.waitFor(timeout: 20) { $0.contains("All changes synced") }, "\(tmux.capture())")
        #expect(!tmux.capture().contains("press U"))
        tmux.keys("q")
    }
}
