import Foundation
import QuireApp

#if canImport(Glibc)
    import Glibc
#endif

/// Hands a text to the person's editor and returns what they saved.
///
/// The editor is `$VISUAL`, then `$EDITOR`, then `vi` (the app's rule), run through `/bin/sh` so
/// that values like `code --wait` work, and started the way the app starts it (`ChildProcess`). The text goes into a private temporary file; when something goes
/// wrong after the person has typed, the file is kept and its path is in the error, because
/// nothing a person typed may be lost silently.
struct EditorSession {
    let environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    var editorCommand: String { AppEnvironment.editorCommand(environment) }

    /// A file the person's text lives in while they edit.
    struct Draft {
        let path: String

        func read() throws(CLIFailure) -> String {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .badInput("cannot read the edited file \(path)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw .badInput("the edited file is not UTF-8 text; it is kept at \(path)")
            }
            return text
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Writes `text` to a new temporary file, opens the editor on it and waits for it to exit.
    func edit(_ text: String, name: String) throws(CLIFailure) -> Draft {
        let path = NSTemporaryDirectory() + "quire-edit-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).md"
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw .badInput("cannot create a temporary file for the editor at \(path)") }
        let status: Int32
        do {
            status = try ignoringInterrupts {
                try ChildProcess.run(shellCommand: editorCommand, arguments: [path], environment: environment)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw .badInput("cannot start the editor '\(editorCommand)': \(error)")
        }
        guard status == 0 else {
            throw .badInput(
                "the editor '\(editorCommand)' failed (status \(status)); nothing changed, your text is kept at \(path)"
            )
        }
        return Draft(path: path)
    }

    /// Runs `body` with Ctrl-C and Ctrl-\\ left to the editor, as `system(3)` does: the terminal
    /// sends them to quire too, and quire ending there would leave the editor behind and drop
    /// what the person saves. The child gets the default actions back (`ChildProcess`).
    private func ignoringInterrupts<T>(_ body: () throws -> T) rethrows -> T {
        let interrupt = signal(SIGINT, SIG_IGN)
        let quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGQUIT, quit)
        }
        return try body()
    }
}
