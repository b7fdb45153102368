import Foundation

/// Hands a text to the person's editor and returns what they saved.
///
/// The editor is `$VISUAL`, then `$EDITOR`, then `vi`, run through `/bin/sh` so that values
/// like `code --wait` work. The text goes into a private temporary file; when something goes
/// wrong after the person has typed, the file is kept and its path is in the error, because
/// nothing a person typed may be lost silently.
struct EditorSession {
    let environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    var editorCommand: String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        }
        return "vi"
    }

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
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw .badInput("cannot create a temporary file for the editor at \(path)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", editorCommand + " \"$1\"", "sh", path]
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw .badInput("cannot start the editor '\(editorCommand)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .badInput("the editor '\(editorCommand)' failed (status \(process.terminationStatus)); nothing changed, your text is kept at \(path)")
        }
        return Draft(path: path)
    }
}
