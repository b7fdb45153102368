import Foundation
import QuireCore
import QuireUI
import TerminalUI

/// `E`: the terminal goes to `$EDITOR` and comes back.
extension AppRuntime {
    /// Runs the editor on the UI queue, which waits for it: nothing else may draw meanwhile.
    /// Saves land in the store from the watcher's queue as they happen.
    func editExternally(_ item: Item) -> Message {
        let session = ExternalEditSession(
            item: item, items: environment.items, directory: environment.temporaryDirectory)
        do {
            try session.prepare()
        } catch {
            return .externalEditFinished(session.outcome(editorStatus: nil, startError: "\(error)"))
        }
        backend.suspend()
        var status: Int32?
        var startError: String?
        session.startWatching(every: environment.editorPollInterval)
        do {
            let pid = try ChildProcess.spawn(
                shellCommand: environment.editorCommand, arguments: [session.path],
                environment: environment.processEnvironment)
            editorChild.set(pid)
            status = ChildProcess.wait(pid)
            editorChild.set(nil)
        } catch {
            startError = "cannot start the editor '\(environment.editorCommand)': \(error)"
        }
        session.stopWatching()
        backend.resume()
        forgetScreen()
        markStoreSeen()
        if startError == nil, let status,
            let problem = AppRuntime.editorFailure(status, command: environment.editorCommand)
        {
            // The shell's own codes for a command it could not find or run: say which command.
            startError = problem
        }
        return .externalEditFinished(session.outcome(editorStatus: status, startError: startError))
    }

    /// What a shell's exit status says about the editor command itself: 127 is "not found",
    /// 126 "found but cannot be run". Nil for any other status (the editor's own).
    static func editorFailure(_ status: Int32, command: String) -> String? {
        switch status {
        case 127: "the editor '\(command)' was not found; set $VISUAL or $EDITOR to an editor you have"
        case 126: "the editor '\(command)' cannot be run (permission denied?); set $VISUAL or $EDITOR"
        default: nil
        }
    }

    /// Whether the external editor is running now (any thread).
    public var isEditingExternally: Bool { editorChild.current != nil }

    /// Passes a signal to the external editor, if one runs (any thread).
    public func forwardToEditor(_ signal: Int32) {
        editorChild.forward(signal)
    }
}
