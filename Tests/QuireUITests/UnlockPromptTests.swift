import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// `U` on the list: the unlock prompt of a device locked out of an encrypted account (SPEC:
/// End-to-end encryption, "in the app, a prompt when the server says the account is
/// encrypted"). The secret is never drawn, a wrong one keeps the prompt for another try.
@Suite struct UnlockPromptTests {
    /// A harness whose sync worker says the account is encrypted and this device has no keys.
    func locked(size: Size = .standard) -> Harness {
        var harness = Harness(size: size)
        var worker = SyncWorkerState(connection: .authNeeded)
        worker.unlockNeeded = true
        harness.send(.syncWorkerChanged(worker))
        return harness
    }

    /// A hint or a change starts another round, which fails for want of keys again: `U`
    /// pressed while it runs opens the prompt (it said "not locked", and the keys typed next
    /// went to the list: `t` opened a new task).
    @Test func uOpensThePromptWhileARoundRunsOnALockedDevice() {
        var harness = locked()
        var worker = SyncWorkerState(connection: .syncing)
        worker.unlockNeeded = true
        harness.send(.syncWorkerChanged(worker))
        harness.press(.character("U"))
        #expect(harness.state.unlock != nil, "\(harness.text)")
    }

    /// The server is down: the newest round failed offline, yet the device is as locked as
    /// before. The status bar says both, and `U` opens the prompt (it said "This device is not
    /// locked", and the passphrase typed next went to the list).
    @Test func uOpensThePromptOnALockedDeviceThatIsOffline() {
        var harness = Harness(size: .standard)
        var worker = SyncWorkerState(connection: .offline)
        worker.unlockNeeded = true
        harness.send(.syncWorkerChanged(worker))
        #expect(harness.text.contains("offline · encrypted: press U to unlock"), "\(harness.text)")
        harness.press(.character("U"))
        #expect(harness.state.unlock != nil, "\(harness.text)")
        harness.type("a secret")
        #expect(harness.state.unlock?.field.text == "a secret", "typed into the prompt, not the list")
    }

    @Test func theStatusBarPointsToUAndUOpensThePrompt() throws {
        var harness = locked()
        #expect(harness.text.contains("sync paused · encrypted: press U to unlock"), "\(harness.text)")
        harness.press(.character("U"))
        #expect(harness.state.unlock != nil)
        harness.type("hunter22 secret")
        let text = harness.text
        #expect(text.contains("Unlock this device (encrypted account)"))
        #expect(text.contains("Passphrase: •••••••••••••••"), "\(text)")
        #expect(!text.contains("hunter22"), "a passphrase is never drawn")
        assertSnapshot(text, named: "unlock-prompt-80x24")

        harness.effects = []
        harness.press(.enter)
        #expect(harness.effects == [.unlock(UnlockRequest(secret: "hunter22 secret", isRecoveryKey: false))])
        #expect(harness.text.contains("Unlocking…"))
        harness.type("x")
        #expect(harness.state.unlock?.field.text == "hunter22 secret", "keys wait while it unlocks")
    }

    @Test func aWrongPassphraseKeepsThePromptEmptiedAndSaysSo() throws {
        var harness = locked()
        harness.press(.character("U"))
        harness.type("wrong one")
        harness.press(.enter)
        harness.send(
            .unlockFinished(
                .refused("wrong passphrase: it does not unlock this account's key ring", wrongSecret: true)))
        #expect(harness.state.unlock?.field.text == "", "emptied for another try")
        #expect(harness.state.unlock?.unlocking == false)
        #expect(
            harness.state.notice?.text
                == "Wrong passphrase: it does not unlock this account's key ring. Nothing changed.")
        #expect(harness.state.notice?.isError == true)

        // Tab asks for the recovery key instead; a paste types it whole.
        harness.press(.tab)
        harness.send(.paste("ABCD-EFGH"))
        #expect(harness.text.contains("Recovery key: •••••••••"), "\(harness.text)")
        harness.effects = []
        harness.press(.enter)
        #expect(harness.effects == [.unlock(UnlockRequest(secret: "ABCD-EFGH", isRecoveryKey: true))])

        harness.effects = []
        harness.send(.unlockFinished(.unlocked))
        #expect(harness.state.unlock == nil)
        #expect(harness.effects.contains(.syncNow), "sync goes on at once")
        #expect(harness.state.notice?.text.hasPrefix("Unlocked") == true)
    }

    @Test func anUnreachableServerClosesThePromptAndEscLeavesIt() throws {
        var harness = locked()
        harness.press(.character("U"))
        harness.type("secret")
        harness.press(.enter)
        harness.send(.unlockFinished(.refused("the server could not be reached", wrongSecret: false)))
        #expect(harness.state.unlock == nil)
        #expect(harness.state.notice?.text == "The server could not be reached. Nothing changed.")

        harness.press(.character("U"), .character("a"), .escape)
        #expect(harness.state.unlock == nil)
        #expect(harness.state.screen == .list, "Esc leaves the prompt, not the list")
    }

    /// `U` unlocks from the item view and the sync status screen too; in the editor, where `U`
    /// is a letter, the status bar points to the list instead (a passphrase typed after a `U`
    /// there would land in the note).
    @Test func uWorksWhereTheStatusBarSaysSo() {
        var harness = locked()
        harness.press(.enter)
        #expect(harness.text.contains("press U to unlock"))
        harness.press(.character("U"))
        #expect(harness.state.unlock != nil, "the item view")
        harness.press(.escape)
        #expect(harness.state.unlock == nil && harness.state.screen == .detail(scroll: 0))
        harness.press(.character("e"))
        #expect(harness.text.contains("encrypted: U on the list unlocks"), "\(harness.text)")
        harness.press(.escape)
        harness.press(.escape)
        harness.press(.character("S"))
        #expect(harness.state.screen == .syncStatus)
        harness.press(.character("U"))
        #expect(harness.state.unlock != nil, "the sync status screen")
    }

    @Test(arguments: [SyncConnection.idle, .offline, .error, .syncing])
    func anUnlockedDeviceHasNothingToUnlock(connection: SyncConnection) {
        var harness = Harness(size: .standard)
        var worker = SyncWorkerState(connection: connection)
        worker.unlockNeeded = false
        harness.send(.syncWorkerChanged(worker))
        #expect(!harness.text.contains("encrypted"))
        harness.press(.character("U"))
        #expect(harness.state.unlock == nil)
        #expect(harness.state.notice?.text == "This device is not locked: nothing to unlock")
    }

    @Test func thePromptFitsASmallTerminal() {
        var harness = locked(size: .small)
        harness.press(.character("U"))
        harness.type("abc")
        assertSnapshot(harness.text, named: "unlock-prompt-40x12")
        #expect(harness.text.contains("Passphrase: •••"))
    }
}
