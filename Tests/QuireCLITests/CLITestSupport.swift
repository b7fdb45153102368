import Foundation
import GRDB
import Testing

/// Runs the built `quire` binary against a private `QUIRE_HOME`, the way a person or a script
/// would, and reads back exit status, stdout and stderr.
///
/// The binary is found beside the test bundle (the same build products folder), whatever the
/// build configuration or scratch path.
struct QuireCLI {
    /// The `quire` executable in the build products folder that holds this test bundle.
    static let executable: String = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        // On some runners the test executable sits inside a bundle folder (X.xctest/...).
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("quire").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("quire").path
    }()

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
        home = NSTemporaryDirectory() + "quire-cli-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    var database: String { home + "/quire.db" }

    func remove() { try? FileManager.default.removeItem(atPath: home) }

    /// Starts `quire` with `arguments`; the caller waits or kills.
    func start(_ arguments: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["QUIRE_HOME"] = home
        env["NO_COLOR"] = "1"
        env["TZ"] = "UTC"
        env["VISUAL"] = nil
        env["EDITOR"] = nil
        for (key, value) in environment.merging(extraEnvironment, uniquingKeysWith: { $1 }) { env[key] = value }
        process.environment = env
        let capture = NSTemporaryDirectory() + "quire-cli-out-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: capture + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: capture + ".err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: capture + ".out")
        process.standardError = FileHandle(forWritingAtPath: capture + ".err")
        if let stdin {
            let input = capture + ".in"
            _ = FileManager.default.createFile(atPath: input, contents: Data(stdin.utf8))
            process.standardInput = FileHandle(forReadingAtPath: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        return (process, capture)
    }

    static func collect(_ process: Process, _ capture: String) -> Result {
        process.waitUntilExit()
        defer {
            for suffix in [".out", ".err", ".in"] { try? FileManager.default.removeItem(atPath: capture + suffix) }
        }
        let out = (try? String(contentsOfFile: capture + ".out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: capture + ".err", encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
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
