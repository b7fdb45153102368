import Foundation
import QuireCrypto
import QuireProtocol

/// Unlocking this device for an encrypted account (SPEC: End-to-end encryption): the account's
/// key ring is read from the server, opened with the passphrase or the recovery key, and the
/// data keys it holds are kept in the credentials file beside the token, where the sync
/// engine reads them at its next round. The one way both `quire encryption unlock` and the
/// app's unlock prompt do it, so they refuse the same things in the same words.
///
/// A wrong secret changes nothing: the keys are written only once the ring has opened.
public enum DeviceUnlock {
    /// What the person typed.
    public enum Secret: Sendable {
        case passphrase(String)
        case recoveryKey(String)
    }

    /// Why the device is still locked; nothing was changed.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// No remote is set: there is no account to unlock.
        case noRemote
        /// The account has no key ring: it is not encrypted.
        case notEncrypted
        /// The server could not be asked.
        case transport(SyncTransportError)
        /// Text that cannot be a recovery key (found before any cryptography runs).
        case notARecoveryKey(RecoveryKeyError)
        /// The ring did not open: a wrong passphrase or recovery key, or a ring this version
        /// cannot read.
        case refused(KeyRingError)
        /// The keys could not be written to the credentials file.
        case notSaved(SyncSettingsError)

        /// Whether the person gave a wrong secret (SPEC: exit 4), as opposed to a problem
        /// with what they typed or with the account.
        public var isWrongSecret: Bool {
            switch self {
            case .refused(.wrongPassphrase), .refused(.wrongRecoveryKey): true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .noRemote: "no remote is set: run 'quire remote set URL --token TOKEN' first"
            case .notEncrypted: "this account is not encrypted: there is nothing to unlock"
            case .transport(let error): error.description
            case .notARecoveryKey(let error): error.description
            case .refused(let error): error.description
            case .notSaved(let error): error.description
            }
        }
    }

    /// Unlocks with the remote `settings` name, through `transport` (its server and token);
    /// answers the data keys now kept on this device. Runs the key derivation (about half a
    /// second, by design): call it off any queue that draws or reads keys.
    public static func unlock(
        _ secret: Secret, settings: SyncSettings, transport: HTTPSyncTransport
    ) async throws(Failure) -> DataKeys {
        let document: KeyRingDocument?
        do {
            document = try await transport.keyRing()
        } catch {
            throw .transport(error)
        }
        guard let document else { throw .notEncrypted }
        let unlocked = try open(document.keyring, with: secret)
        do {
            try settings.setDataKeys(unlocked.dataKeys, from: document)
        } catch {
            throw .notSaved(error)
        }
        return unlocked.dataKeys
    }

    /// `ring` opened with what the person typed; nothing is kept. What `unlock` and the commands
    /// that change the ring (`quire encryption rotate`) open it with, refusing the same things.
    public static func open(_ ring: KeyRing, with secret: Secret) throws(Failure) -> UnlockedKeyRing {
        do {
            switch secret {
            case .passphrase(let passphrase):
                return try ring.unlock(passphrase: passphrase)
            case .recoveryKey(let text):
                let key: RecoveryKey
                do {
                    key = try RecoveryKey(parsing: text)
                } catch {
                    throw Failure.notARecoveryKey(error)
                }
                return try ring.unlock(recoveryKey: key)
            }
        } catch let failure as Failure {
            throw failure
        } catch let error as KeyRingError {
            throw .refused(error)
        } catch {
            throw .refused(.damaged("\(error)"))
        }
    }

    /// `unlock` with the remote the settings name.
    public static func unlock(
        _ secret: Secret, settings: SyncSettings, timeout: TimeInterval = 60
    ) async throws(Failure) -> DataKeys {
        guard let remote = settings.remote() else { throw .noRemote }
        let transport = HTTPSyncTransport(baseURL: remote.url, token: remote.token, timeout: timeout, now: { Date() })
        return try await unlock(secret, settings: settings, transport: transport)
    }
}
