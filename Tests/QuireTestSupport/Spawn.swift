import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion and answers its exit status and what it printed.
///
/// Output goes to a file, not a pipe, because a program such as the tmux server outlives the
/// client that started it and would hold a pipe open forever; it starts with a clean signal
/// state (see `SpawnedProcess`), so a tmux server can be stopped and notices its panes exit.
public enum Spawn {
    public static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let outputPath = NSTemporaryDirectory() + "quire-spawn-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        guard let process = try? SpawnedProcess(executable, arguments, output: .file(outputPath)) else {
            return (-1, "")
        }
        return (process.terminationStatus, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }
}
