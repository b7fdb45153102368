import ArgumentParser
import QuireCore
import QuireStore

/// `quire undo`: what `u` does in the app, from the same history, so each takes back the other's
/// actions too.
struct UndoCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last local action (as u in the app).",
        discussion: """
            Actions are this device's own changes (from the app or from quire commands), newest \
            first; each undo is an ordinary change that syncs, and a second undo goes on to the \
            action before. If the item changed since the action (another device, another \
            terminal), the undo merges with that change; where both touched the same lines, both \
            are kept, the item needs review and the exit status is 5.
            """)

    func run(store: AppDatabase, out: inout Output) throws {
        guard let undone = try store.undoLastAction() else {
            out.line("nothing to undo")
            return
        }
        switch undone.plan {
        case .cannot:
            throw CLIFailure.badInput(undone.text)
        case .revert where undone.met == .needsReview:
            out.flush()
            throw CLIFailure(.needsReview, undone.text)
        default:
            out.line(undone.text)
        }
    }
}
