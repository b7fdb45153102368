import Foundation
import QuireTestSupport
import Testing

/// The app on a device locked out of an encrypted account (SPEC: End-to-end encryption): the
/// built `quire` in tmux, the built `quire-server`, and another device that turned encryption
/// on. The status bar says how to unlock, `U` asks for the passphrase, a wrong one is refused
/// on the spot, the right one unlocks, and the sealed item arrives with no command run.
@Suite(.serialized, Tmux.required) struct TmuxUnlockTests {
    static let passphrase = "correct horse battery"

    /// A server, a laptop that added "Sealed plans" and turned encryption on, and a phone of
    /// the same account that holds no keys, for `body`; both homes are removed after it.
    func withLockedPhone(_ body: (TmuxSyncTests.Server, TmuxEndToEndTests.Setup) throws -> Void) throws {
        let (server, laptop, phone) = try TmuxSyncTests().twoDevices()
        defer {
            // The server must outlive the devices' last sync: it stops when released.
            withExtendedLifetime(server) {}
            for device in [laptop, phone] { try? FileManager.default.removeItem(atPath: device.home) }
        }
        #expect(try laptop.cli("add", "Sealed plans").status == 0)
        let enabled = try laptop.cli("encryption", "enable", "--passphrase-stdin", stdin: Self.passphrase)
        #expect(enabled.status == 0, "\(enabled.output)")
        try body(server, phone)
    }

    @Test func uUnlocksALockedDeviceAndItsItemsArrive() throws {
        try withLockedPhone { _, phone in
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

    /// The server goes down on a locked device: the newest round failed offline, yet `U` opens
    /// the prompt (it said "This device is not locked", and the passphrase typed next went to
    /// the list). Unlocking needs the server (the key ring is there): Enter says so in one line,
    /// and nothing typed reaches the list. The app opened again while the server is still down
    /// knows it is locked before any round has reached the server, and unlocks once it is back.
    @Test func uOpensThePromptOnALockedDeviceWhoseServerIsDown() throws {
        try withLockedPhone { server, phone in
            var tmux = try Tmux(script: phone.script(), directory: phone.home)
            #expect(tmux.waitFor(timeout: 20) { $0.contains("encrypted: press U to unlock") }, "\(tmux.capture())")
            server.process.kill()
            tmux.keys("s")
            #expect(
                tmux.waitFor(timeout: 20) { $0.contains("offline") && $0.contains("encrypted: press U to unlock") },
                "a locked device that is offline says both: \(tmux.capture())")

            tmux.keys("U")
            #expect(tmux.waitFor { $0.contains("Passphrase:") }, "\(tmux.capture())")
            tmux.type(Self.passphrase)
            tmux.keys("Enter")
            #expect(
                tmux.waitFor(timeout: 20) { $0.contains("Server unreachable") && $0.contains("Nothing changed") },
                "one line says why: \(tmux.capture())")
            let after = tmux.capture()
            #expect(!after.contains("Passphrase:") && !after.contains("horse"), "\(after)")
            #expect(try phone.titles().isEmpty, "nothing typed reached the list")
            tmux.keys("q")
            #expect(tmux.waitFor { $0.contains("quire-exited-0") }, "\(tmux.capture())")

            tmux = try Tmux(script: phone.script(), directory: phone.home)
            #expect(
                tmux.waitFor(timeout: 20) { $0.contains("offline") && $0.contains("encrypted: press U to unlock") },
                "opened again, still locked: \(tmux.capture())")
            tmux.keys("U")
            #expect(tmux.waitFor { $0.contains("Passphrase:") }, "\(tmux.capture())")
            try server.restart()
            tmux.type(Self.passphrase)
            tmux.keys("Enter")
            #expect(tmux.waitFor(timeout: 20) { $0.contains("Sealed plans") }, "\(tmux.capture())")
            #expect(!tmux.capture().contains("press U"))
            tmux.keys("q")
        }
    }
}
