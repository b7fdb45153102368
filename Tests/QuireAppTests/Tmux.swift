import Foundation
import QuireTestSupport
import Testing

/// A private tmux server (its own socket, no user config) running one program in a pane of a
/// fixed size, for end-to-end tests on a real pseudo-terminal.
final class Tmux {
    let socket = "quire-test-\(UUID().uuidString.prefix(8))"
    let directory: String

    /// The trait of every suite that drives tmux: without tmux its tests show as skipped
    /// (with the reason), never as passed.
    static var required: ConditionTrait {
        .enabled(if: executable != nil, "tmux is missing: run make deps")
    }

    static var executable: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts `script` (shell text) in a new detached session of `width` x `height`.
    init(script: String, width: Int = 100, height: Int = 30, directory: String) throws {
        self.directory = directory
        let path = directory + "/pane.sh"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try run(["new-session", "-d", "-s", "main", "-x", String(width), "-y", String(height), "sh " + path])
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        Spawn.run(Tmux.executable ?? "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments).output
    }

    /// What the pane shows, one string per row.
    func capture() -> String {
        (try? run(["capture-pane", "-p", "-t", "main"])) ?? ""
    }

    /// Sends keys in tmux's key names (`C-s`, `Escape`, `Enter`).
    func keys(_ names: String...) {
        _ = try? run(["send-keys", "-t", "main"] + names)
    }

    /// Types text literally.
    func type(_ text: String) {
        _ = try? run(["send-keys", "-t", "main", "-l", text])
    }

    func resize(width: Int, height: Int) {
        _ = try? run(["resize-window", "-t", "main", "-x", String(width), "-y", String(height)])
    }

    /// A tmux format value for the pane, e.g. `#{alternate_on}`.
    func format(_ format: String) -> String {
        ((try? run(["display-message", "-p", "-t", "main", format])) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane every few milliseconds until `condition` holds; false at the deadline.
    @discardableResult
    func waitFor(timeout: TimeInterval = 5, _ condition: (String) -> Bool) -> Bool {
        waitUntil(timeout: timeout, every: 0.02) { condition(capture()) }
    }
}
