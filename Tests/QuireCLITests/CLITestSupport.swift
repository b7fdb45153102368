import Foundation
import GRDB
import QuireTestSupport
import Testing

/// Runs the built `quire` binary against a private `QUIRE_HOME`, the way a person or a script
/// would, and reads back exit status, stdout and stderr.
///
/// The binary is found beside the test bundle (the same build products folder), whatever the
/// build configuration or scratch path.
struct QuireCLI {
    /// The `quire` executable in the build products folder that holds this test bundle.
    static let executable: String = BuiltProduct.path("quire") ?? "quire (not built beside the tests)"

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stderr holds exactly one line.
        var oneErrorLine: Bool {
            let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count == 2 && lines[1].isEmpty && !lines[0].isEmpty
        }
    }

    let home: String
    var environment: [String: String] = [:]

    init() throws {
        home = try makeTemporaryDirectory("quire-cli-test")
    }

    var database: String { home + "/quire.db" }

    func remove() { try? FileManager.default.removeItem(atPath: home) }

    /// Starts `quire` with `arguments`; the caller waits or kills, then collects.
    func start(
        _ arguments: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:],
        executable: String = QuireCLI.executable
    ) throws -> (SpawnedProcess, ChildRun) {
        var env = ProcessInfo.processInfo.environment
        env["QUIRE_HOME"] = home
        env["NO_COLOR"] = "1"
        env["TZ"] = "UTC"
        env["VISUAL"] = nil
        env["EDITOR"] = nil
        for (key, value) in environment.merging(extraEnvironment, uniquingKeysWith: { $1 }) { env[key] = value }
        let child = try ChildRun(executable, arguments, environment: env, stdin: stdin)
        return (child.process, child)
    }

    static func collect(_ process: SpawnedProcess, _ child: ChildRun) -> Result {
        let output = child.finish()
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments, stdin: stdin, environment: extra)
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let (process, capture) = try start(arguments, stdin: stdin, extraEnvironment: extra)
        return Self.collect(process, capture)
    }

    /// Runs `quire` with stdout and stderr on a terminal (a pseudo-terminal of `script(1)`, 100
    /// columns wide), as a person at a terminal would; the result's stdout holds what the
    /// terminal showed, both streams, with `\r\n` line ends turned into `\n`.
    func runOnTerminal(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws
        -> Result
    {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command =
            "stty cols 100 rows 40 2>/dev/null; exec "
            + ([Self.executable] + arguments).map(quoted).joined(separator: " ")
        var environment = ["TERM": "xterm"]
        for (key, value) in extra { environment[key] = value }
        let (process, capture) = try start(
            ["-qefc", command, "/dev/null"], stdin: stdin, extraEnvironment: environment, executable: "/usr/bin/script")
        var result = Self.collect(process, capture)
        result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return result
    }

    /// `quire add ...` that must succeed; returns the new id.
    func add(_ arguments: String...) throws -> String {
        let result = try run(["add"] + arguments)
        #expect(result.status == 0, "add failed: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The JSON document a `--json` command printed.
    func json(_ arguments: String...) throws -> Any {
        try json(arguments)
    }

    func json(_ arguments: [String]) throws -> Any {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments) failed: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// The ids `quire list` prints for these arguments (a filter, flags), in its order.
    func listedIDs(_ arguments: [String]) throws -> [String] {
        (try json(["list"] + arguments + ["--json"]) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// The item's short id, as `quire list` shows it (the first column).
    func shortID(of title: String) throws -> String {
        let line = try #require(try run("list", "--all").stdout.split(separator: "\n").first { $0.contains(title) })
        return String(try #require(line.split(separator: " ").first))
    }

    /// Every item, deleted ones included, as JSON objects.
    func allItems() throws -> [[String: Any]] {
        try json("list", "--all", "--json") as? [[String: Any]] ?? []
    }

    /// A fingerprint of the whole store (items, history and outbox rows), to prove nothing changed.
    func snapshot() throws -> String {
        guard FileManager.default.fileExists(atPath: database) else { return "no database" }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: database, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var parts: [String] = []
            for table in ["item", "itemVersion", "outbox"] {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1")
                parts.append(rows.map(\.description).joined(separator: "\n"))
            }
            return parts.joined(separator: "\n--\n")
        }
    }
}

/// SHA-free byte comparison of a file: its whole content.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}
