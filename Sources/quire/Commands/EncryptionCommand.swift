import ArgumentParser
import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireStore
import QuireSync

/// `quire encryption enable|unlock|status|change-passphrase|rotate` (SPEC: End-to-end encryption).
struct EncryptionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encryption",
        abstract: "Encrypt what the server keeps, unlock this device, or see what the server can read.",
        discussion: """
            With encryption on, the server keeps only sealed values: it can see ids, revisions, \
            sizes, times, which fields an op changes and deletions, never a title, body or tag. \
            The passphrase never leaves this device; the recovery key printed once by 'enable' \
            also unlocks the account. This device's keys are kept in the credentials file \
            (mode 0600) beside the token.
            """,
        subcommands: [
            EncryptionEnableCommand.self, EncryptionUnlockCommand.self, EncryptionStatusCommand.self,
            EncryptionChangePassphraseCommand.self, EncryptionRotateCommand.self,
        ],
        defaultSubcommand: EncryptionStatusCommand.self)
}

/// What the encryption commands share: the remote, its transport, secrets as typed or piped.
enum EncryptionSupport {
    static let minimumPassphraseLength = 8

    /// The configured remote and a transport to it; a failure when none is set.
    static func remote() throws -> (settings: SyncSettings, transport: HTTPSyncTransport) {
        let settings = try SyncCommandSupport.checkedSettings()
        guard let remote = settings.remote() else {
            throw CLIFailure.badInput("no remote is set: run 'quire remote set URL --token TOKEN' first")
        }
        return (settings, HTTPSyncTransport(baseURL: remote.url, token: remote.token, timeout: 60, now: { Date() }))
    }

    /// The account's key ring, nil when it is not encrypted.
    static func keyRing(_ transport: HTTPSyncTransport) async throws -> KeyRingDocument? {
        do {
            return try await transport.keyRing()
        } catch {
            throw failure(error)
        }
    }

    /// A transport failure as the CLI says it: the exit code `quire sync` gives the same
    /// failure (3 unreachable, 4 refused), with what it means here.
    static func failure(_ error: SyncTransportError) -> CLIFailure {
        let code = SyncCommandSupport.failure(for: error.outcome)?.code ?? .unreachable
        return CLIFailure(code, "\(error.description); nothing changed")
    }

    /// A new passphrase: asked twice at the terminal, or one line of standard input.
    static func newPassphrase(fromStandardInput: Bool, prompt: String = "New passphrase") throws -> String {
        let passphrase: String
        if fromStandardInput {
            guard let line = SecretPrompt.nextStandardInputLine() else {
                throw CLIFailure.badInput("no passphrase on standard input")
            }
            passphrase = line
        } else {
            passphrase = try SecretPrompt.ask(prompt, orUse: "--passphrase-stdin")
            let again = try SecretPrompt.ask("\(prompt) again", orUse: "--passphrase-stdin")
            guard passphrase == again else { throw CLIFailure.badInput("the two passphrases differ; nothing changed") }
        }
        guard passphrase.count >= minimumPassphraseLength else {
            throw CLIFailure.badInput(
                "the passphrase is too short: use at least \(minimumPassphraseLength) characters; nothing changed")
        }
        return passphrase
    }

    /// The current passphrase: asked at the terminal, or one line of standard input.
    static func currentPassphrase(fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = SecretPrompt.nextStandardInputLine() else {
                throw CLIFailure.badInput("no passphrase on standard input")
            }
            return line
        }
        return try SecretPrompt.ask("Passphrase", orUse: "--passphrase-stdin")
    }

    /// A wrong secret is SPEC's exit 4, and changes nothing.
    static func refusal(_ error: KeyRingError) -> CLIFailure {
        switch error {
        case .wrongPassphrase, .wrongRecoveryKey:
            CLIFailure(.authenticationRefused, "\(error.description); nothing changed")
        default: CLIFailure(.badInput, "\(error.description); nothing changed")
        }
    }

    /// Why `unlock` left the device locked, with the exit code the same failure has elsewhere:
    /// a wrong secret 4, the server out of reach as `quire sync` says it, else bad input.
    static func refusal(_ error: DeviceUnlock.Failure) -> CLIFailure {
        switch error {
        case .refused(let refused): refusal(refused)
        case .transport(let transport): failure(transport)
        case .notARecoveryKey(let reason): CLIFailure(.authenticationRefused, "\(reason.description); nothing changed")
        default: CLIFailure.badInput(error.description)
        }
    }

    /// Stores a new version of the ring; a concurrent change is said in words.
    static func store(_ document: KeyRingDocument, _ transport: HTTPSyncTransport, what: String) async throws -> Int {
        do {
            return try await transport.storeKeyRing(document)
        } catch {
            if case .status(409, _, _) = error {
                throw CLIFailure.badInput(
                    "another device changed the account's encryption meanwhile; nothing changed here: \(what)")
            }
            throw failure(error)
        }
    }

    /// Writes every item that is plain, or sealed under an earlier data key, back sealed under
    /// the current one (`EncryptionConversion`: one way for `enable` and `rotate`), then syncs
    /// so this device holds the sealed versions. An interrupted run is finished by `enable`,
    /// which makes no new key.
    static func sealEveryItem(
        with keys: DataKeys, store: AppDatabase, settings: SyncSettings, transport: HTTPSyncTransport
    ) async throws {
        let conversion = EncryptionConversion(
            transport: transport, sealer: ItemSealer(keys: keys), writer: store.environment.newID(Date()))
        let outcome: EncryptionConversion.Outcome
        do throws(SyncTransportError) {
            outcome = try await conversion.run()
        } catch {
            throw CLIFailure(
                EncryptionSupport.failure(error).code,
                "items are not all sealed yet (\(error.description)): run 'quire encryption enable' to finish")
        }
        let engine = SyncCommandSupport.engine(store: store, settings: settings)
        let failure = SyncCommandSupport.failure(for: await engine.runToCompletion(), store: store)
        var out = Output()
        out.line(
            "Sealed \(counted(outcome.sealed)) on the server under data key \(keys.currentID)"
                + (outcome.alreadySealed > 0 ? " (\(outcome.alreadySealed) were already sealed)." : "."))
        if outcome.unreadable > 0 {
            out.line(
                "\(counted(outcome.unreadable)) did not open here and stayed as they were: "
                    + "'quire status' names them on the devices that meet them.")
        }
        out.flush()
        if let failure { throw failure }
    }

    private static func counted(_ items: Int) -> String { items == 1 ? "1 item" : "\(items) items" }
}

struct EncryptionEnableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Encrypt this account: asks for a passphrase, prints a recovery key once, seals every item.",
        discussion: """
            Syncs first, then stores the account's key ring on the server (wrapped under the \
            passphrase and the recovery key), then writes every item back sealed. From then on \
            the server refuses plain writes: other devices are asked to unlock ('quire encryption \
            unlock') and keep what they queued. Run it again after an interruption: it finishes \
            what is left. After the server is restored from a backup older than the encryption, \
            run it on a device that holds the keys: the new ring wraps those same keys.
            """)

    @Flag(help: "Read the passphrase from standard input (one line) instead of asking twice.")
    var passphraseStdin = false

    func run() async throws {
        let (settings, transport) = try EncryptionSupport.remote()
        let store = try StoreAccess.open()
        let heldKeys = try settings.dataKeysOrFailure()
        if try await EncryptionSupport.keyRing(transport) != nil {
            guard let held = heldKeys else {
                throw CLIFailure.badInput(
                    "this account is already encrypted: unlock this device with 'quire encryption unlock'")
            }
            // An earlier run stored the ring (or a rotation made a key current, perhaps one
            // interrupted before this device kept its key): learn what the ring holds as a sync
            // would, then finish sealing what it left under the ring's current key.
            let learning = KeyLearning(
                settings: settings, readRing: transport.keyRing, storeRing: transport.storeKeyRing)
            let keys = await learning.learn(holding: held)?.keys ?? held
            try await EncryptionSupport.sealEveryItem(
                with: keys, store: store, settings: settings, transport: transport)
            return
        }
        if heldKeys == nil {
            // This device's queue goes first, while the server still takes plain values.
            let engine = SyncCommandSupport.engine(store: store, settings: settings)
            if let failure = SyncCommandSupport.failure(for: await engine.runToCompletion(), store: store) {
                throw CLIFailure(failure.code, "could not sync before encrypting: \(failure.message)")
            }
        }
        // A device that holds the account's keys while the server holds no ring meets a server
        // restored from a backup older than the encryption: its queue goes out sealed, which
        // the server takes only once a ring is back. The ring is made around the keys it holds,
        // so what is sealed under them, here and on every other device, opens as before.
        let passphrase = try EncryptionSupport.newPassphrase(fromStandardInput: passphraseStdin)
        let parameters = KeyDerivation.calibrated()
        let new =
            try heldKeys.map { try KeyRing.create(passphrase: passphrase, parameters: parameters, keeping: $0) }
            ?? KeyRing.create(passphrase: passphrase, parameters: parameters)
        let version = try await EncryptionSupport.store(
            KeyRingDocument(version: 0, keyring: new.ring), transport,
            what: "run 'quire encryption unlock' to use its keys")
        do {
            try settings.setDataKeys(new.unlocked.dataKeys, from: KeyRingDocument(version: version, keyring: new.ring))
        } catch {
            throw CLIFailure.badInput(
                "the account is encrypted but this device could not keep its keys (\(error)): "
                    + "unlock it with 'quire encryption unlock'")
        }
        var out = Output()
        out.line("Encryption is on. Your recovery key, shown this once (it unlocks the account if the")
        out.line("passphrase is lost; keep it somewhere safe, away from this device):")
        out.line("")
        out.line("    \(new.recoveryKey.text)")
        out.line("")
        out.flush()
        try await EncryptionSupport.sealEveryItem(
            with: new.unlocked.dataKeys, store: store, settings: settings, transport: transport)
    }
}

/// The passphrase or the recovery key that opens the account's key ring, as `unlock` and
/// `rotate` take it: asked at the terminal, or one line of standard input.
struct AccountSecretOptions: ParsableArguments {
    @Flag(help: "Read the passphrase from standard input (one line).")
    var passphraseStdin = false

    @Flag(help: "Read the recovery key from standard input instead of a passphrase.")
    var recoveryKeyStdin = false

    func validate() throws {
        guard !(passphraseStdin && recoveryKeyStdin) else {
            throw ValidationError("give either --passphrase-stdin or --recovery-key-stdin, not both")
        }
    }

    func read() throws -> DeviceUnlock.Secret {
        if recoveryKeyStdin { return .recoveryKey(SecretPrompt.nextStandardInputLine() ?? "") }
        return .passphrase(try EncryptionSupport.currentPassphrase(fromStandardInput: passphraseStdin))
    }
}

struct EncryptionUnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Let this device read and write the encrypted account (passphrase or recovery key).",
        discussion: "A wrong passphrase or recovery key is refused (exit 4) and changes nothing.")

    @OptionGroup var secret: AccountSecretOptions

    func run() async throws {
        let (settings, transport) = try EncryptionSupport.remote()
        let secret = try self.secret.read()
        do {
            _ = try await DeviceUnlock.unlock(secret, settings: settings, transport: transport)
        } catch {
            throw EncryptionSupport.refusal(error)
        }
        var out = Output()
        out.line(
            "Unlocked: this device reads and writes the encrypted account; sync goes on at 'quire sync' or in the app.")
        out.flush()
    }
}

struct EncryptionChangePassphraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-passphrase",
        abstract: "Change the passphrase (the data keys and the recovery key stay as they are).",
        discussion: "With --passphrase-stdin, standard input holds the current passphrase, then the new one.")

    @Flag(help: "Read the current and the new passphrase from standard input (one line each).")
    var passphraseStdin = false

    func run() async throws {
        let (_, transport) = try EncryptionSupport.remote()
        guard let document = try await EncryptionSupport.keyRing(transport) else {
            throw CLIFailure.badInput("this account is not encrypted: turn it on with 'quire encryption enable'")
        }
        let current = try EncryptionSupport.currentPassphrase(fromStandardInput: passphraseStdin)
        let unlocked: UnlockedKeyRing
        do {
            unlocked = try document.keyring.unlock(passphrase: current)
        } catch {
            throw EncryptionSupport.refusal(error)
        }
        let new = try EncryptionSupport.newPassphrase(fromStandardInput: passphraseStdin)
        let ring: KeyRing
        do {
            ring = try document.keyring.changingPassphrase(
                to: new, parameters: KeyDerivation.calibrated(), unlocked: unlocked)
        } catch {
            throw EncryptionSupport.refusal(error)
        }
        _ = try await EncryptionSupport.store(
            KeyRingDocument(version: document.version, keyring: ring), transport, what: "run it again")
        var out = Output()
        out.line("Passphrase changed; the recovery key and every device's keys stay as they were.")
        out.flush()
    }
}

struct EncryptionRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Make a new data key current and re-seal every item under it (after a device is lost).",
        discussion: """
            Revoke the lost device's token first ('quire-server token revoke USER --name DEVICE'): \
            devices learn the new key from the account's key ring through the key they hold, so a \
            device whose token still works would learn it too. Rotating asks for the passphrase (or \
            the recovery key): a device holding only data keys cannot rotate. A wrong one is refused \
            (exit 4) and changes nothing. The other devices learn the new key at their next sync, \
            without the passphrase; values sealed under earlier keys still open. Interrupted while \
            re-sealing, 'quire encryption enable' finishes the work without making another key.
            """)

    @OptionGroup var secret: AccountSecretOptions

    func run() async throws {
        let (settings, transport) = try EncryptionSupport.remote()
        let store = try StoreAccess.open()
        guard let document = try await EncryptionSupport.keyRing(transport) else {
            throw CLIFailure.badInput("this account is not encrypted: turn it on with 'quire encryption enable'")
        }
        let secret = try self.secret.read()
        let rotated: (ring: KeyRing, unlocked: UnlockedKeyRing)
        do {
            // Keys the server's ring lost with a restore from an older backup are put back first,
            // so the new key takes an id no device holds yet.
            let ring = settings.keptKeyRing().flatMap(document.keyring.restoring(keysFrom:)) ?? document.keyring
            rotated = try ring.rotated(unlocked: DeviceUnlock.open(ring, with: secret))
        } catch let error as DeviceUnlock.Failure {
            throw EncryptionSupport.refusal(error)
        } catch let error as KeyRingError {
            throw EncryptionSupport.refusal(error)
        }
        // Conditional on the version read: a rotation or passphrase change made meanwhile on
        // another device is never overwritten (its key would be lost).
        let version = try await EncryptionSupport.store(
            KeyRingDocument(version: document.version, keyring: rotated.ring), transport, what: "run it again")
        let keys = rotated.unlocked.dataKeys
        do {
            try settings.setDataKeys(keys, from: KeyRingDocument(version: version, keyring: rotated.ring))
        } catch {
            throw CLIFailure.badInput(
                "data key \(keys.currentID) is now current but this device could not keep it (\(error)): "
                    + "run 'quire encryption unlock', then 'quire encryption enable' to re-seal the items")
        }
        var out = Output()
        out.line("Data key \(keys.currentID) is now current; re-sealing every item under it.")
        out.flush()
        try await EncryptionSupport.sealEveryItem(with: keys, store: store, settings: settings, transport: transport)
        out.line("The other devices learn the new key at their next sync, without the passphrase.")
        out.line(
            "A device whose token still works learns it too: revoke a lost device's token "
                + "('quire-server token revoke USER --name DEVICE') if you have not.")
        out.flush()
    }
}

struct EncryptionStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Whether the account is encrypted, and what the server can and cannot see.")

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    static let serverSees = [
        "item ids", "revisions", "sizes", "times", "which fields an op changes", "deletions",
        "attached files' sizes in chunks",
    ]
    static let serverCannotSee = [
        "titles", "bodies", "tags", "projects", "kinds", "done", "dates (due, wait, scheduled)", "priorities",
        "pins", "recurrence", "attached files' names, types and contents",
    ]

    struct Report: Encodable {
        var encrypted: Bool
        var keyringVersion: Int?
        var unlocked: Bool
        var keyIDs: [UInt32]
        var currentKey: UInt32?
        var serverSees: [String]
        var serverCannotSee: [String]
    }

    func run() async throws {
        let (settings, transport) = try EncryptionSupport.remote()
        let document = try await EncryptionSupport.keyRing(transport)
        let keys = try settings.dataKeysOrFailure()
        let encrypted = document != nil
        let report = Report(
            encrypted: encrypted, keyringVersion: document?.version, unlocked: keys != nil, keyIDs: keys?.ids ?? [],
            currentKey: keys?.currentID, serverSees: Self.serverSees,
            serverCannotSee: encrypted ? Self.serverCannotSee : [])
        var out = Output()
        if json {
            try JSONOutput.encode(&out, report)
        } else if let document {
            out.line("Encrypted (key ring version \(document.version)).")
            out.line(
                keys.map { "This device is unlocked (data key \($0.currentID) of \($0.ids.count))." }
                    ?? "This device is locked: unlock it with 'quire encryption unlock'.")
            out.line("The server can see: " + Self.serverSees.joined(separator: ", ") + ".")
            out.line("It cannot see: " + Self.serverCannotSee.joined(separator: ", ") + ".")
        } else {
            out.line("Not encrypted: the server can read every item. Turn it on with 'quire encryption enable'.")
        }
        out.flush()
    }
}

extension SyncSettings {
    /// The data keys this device holds, with an unreadable credentials file as a CLI failure.
    func dataKeysOrFailure() throws -> DataKeys? {
        do {
            return try dataKeys()
        } catch {
            throw CLIFailure.badInput(error.description)
        }
    }
}
