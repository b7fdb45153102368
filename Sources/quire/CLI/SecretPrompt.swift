import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a secret (a passphrase, a recovery key) as a person types it at the terminal, with
/// echo off, or as a script gives it on standard input, one per line.
enum SecretPrompt {
    /// Lines of standard input, read once (a script's secrets, in the order a command asks).
    /// Only a command's `run` reads them, one after the other on one task, never concurrently.
    nonisolated(unsafe) private static var stdinLines: [String]?

    /// The next line of standard input, without its line end; nil at the end.
    static func nextStandardInputLine() -> String? {
        if stdinLines == nil {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            stdinLines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0.hasSuffix("\r") ? $0.dropLast() : $0)
            }
        }
        guard let lines = stdinLines, let first = lines.first, !(lines.count == 1 && first.isEmpty) else { return nil }
        stdinLines = Array(lines.dropFirst())
        return first
    }

    /// Asks at the terminal (`/dev/tty`) with echo off; throws when there is no terminal, with
    /// the flag a script should use instead.
    static func ask(_ prompt: String, orUse flag: String) throws -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIFailure.badInput("no terminal to ask for the \(prompt.lowercased()) on: give it with \(flag)")
        }
        defer { close(fd) }
        var saved = termios()
        let hasTerminal = tcgetattr(fd, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer { if hasTerminal { tcsetattr(fd, TCSAFLUSH, &saved) } }
        let question = Array("\(prompt): ".utf8)
        _ = question.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 10, byte != 13 { line.append(byte) }
        _ = write(fd, "\n", 1)
        return String(decoding: line, as: UTF8.self)
    }
}
