/// The app's unlock prompt (`U`): the passphrase, or the recovery key, of an encrypted account,
/// for a device that holds no keys yet (SPEC: End-to-end encryption). What is typed is shown as
/// dots, never drawn, and goes only into the unlock effect.
public struct UnlockPrompt: Hashable, Sendable {
    public var field = TextField()
    /// The recovery key instead of the passphrase (`Tab` switches).
    public var recoveryKey = false
    /// Sent, waiting for the answer: the key derivation takes about half a second.
    public var unlocking = false

    public init() {}

    /// What the field asks for.
    public var label: String { recoveryKey ? "Recovery key" : "Passphrase" }
}

/// What the unlock effect sends: the secret and which kind it is.
public struct UnlockRequest: Hashable, Sendable {
    public var secret: String
    public var isRecoveryKey: Bool

    public init(secret: String, isRecoveryKey: Bool) {
        self.secret = secret
        self.isRecoveryKey = isRecoveryKey
    }
}

/// How an unlock went.
public enum UnlockOutcome: Hashable, Sendable {
    /// The device holds the account's keys now; sync goes on.
    case unlocked
    /// Still locked, and why; `wrongSecret` when the passphrase or recovery key was wrong (the
    /// prompt stays for another try).
    case refused(String, wrongSecret: Bool)
}
