import QuireCore
import TerminalUI

/// Unlocking this device from the app (`U` on the list): a prompt for the passphrase or the
/// recovery key, answered off the UI queue (`Effect.unlock`, `Message.unlockFinished`).
extension AppState {
    /// Opens the prompt, or says why there is nothing to unlock.
    mutating func openUnlock() -> [Effect] {
        guard sync.connection != .noRemote else {
            notice = .info("Sync is not configured: there is no account to unlock")
            return []
        }
        guard sync.unlockNeeded else {
            notice = .info("This device is not locked: nothing to unlock")
            return []
        }
        unlock = UnlockPrompt()
        return []
    }

    mutating func unlockKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var current = unlock else { return [] }
        // While the answer is on its way, keys wait: only Ctrl-C quits.
        if current.unlocking {
            return command == .quit ? quit() : []
        }
        switch command {
        case .accept?:
            guard !current.field.isEmpty else {
                notice = .info("Type the \(current.label.lowercased()) first, or Esc to leave")
                return []
            }
            current.unlocking = true
            unlock = current
            return [.unlock(UnlockRequest(secret: current.field.text, isRecoveryKey: current.recoveryKey))]
        case .cancel?:
            unlock = nil
            return []
        case .complete?:
            current.recoveryKey.toggle()
            current.field = TextField()
        case .quit?:
            return quit()
        default:
            _ = current.field.edit(key, command)
        }
        unlock = current
        return []
    }

    mutating func finishUnlock(_ outcome: UnlockOutcome) -> [Effect] {
        switch outcome {
        case .unlocked:
            unlock = nil
            notice = .info("Unlocked: this device reads and writes the encrypted account; sync goes on")
            return [.syncNow]
        case .refused(let reason, let wrongSecret):
            if wrongSecret, var current = unlock {
                current.unlocking = false
                current.field = TextField()
                unlock = current
            } else {
                unlock = nil
            }
            notice = .error(sentence(reason) + " Nothing changed.")
            return []
        }
    }

    /// A reason as a sentence: capitalised, with a full stop.
    private func sentence(_ reason: String) -> String {
        let text = reason.prefix(1).uppercased() + reason.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
