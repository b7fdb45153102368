import Foundation

/// What a finished child process printed and how it exited.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// A child process whose output goes to files, started and later collected.
///
/// Files, not pipes: a child that prints more than a pipe holds never stalls waiting for a
/// reader, and nothing has to drain two pipes at once.
public final class ChildRun: @unchecked Sendable {
    public let process: SpawnedProcess
    private let capture: String
    /// Whether stderr was sent into the stdout file (then `stderr` comes back empty).
    private let mergesOutput: Bool

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil inherits this process's.
    ///   - stdin: text fed on standard input; nil gives it /dev/null.
    ///   - mergingOutput: stderr goes into the same file as stdout, in the order written.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil,
        mergingOutput: Bool = false
    ) throws {
        capture = NSTemporaryDirectory() + "quire-child-\(UUID().uuidString)"
        mergesOutput = mergingOutput
        var input = SpawnedProcess.Input.nullDevice
        if let stdin {
            _ = FileManager.default.createFile(atPath: capture + ".in", contents: Data(stdin.utf8))
            input = .file(capture + ".in")
        }
        do {
            process = try SpawnedProcess(
                executable, arguments, environment: environment, input: input, output: .file(capture + ".out"),
                error: mergingOutput ? .sameAsOutput : .file(capture + ".err"))
        } catch {
            Self.removeFiles(capture)
            throw error
        }
    }

    /// Waits for the child to exit and reads what it printed; its files are removed.
    public func finish() -> ProcessOutput {
        process.waitUntilExit()
        defer { removeFiles() }
        let out = (try? String(contentsOfFile: capture + ".out", encoding: .utf8)) ?? ""
        let err = mergesOutput ? "" : (try? String(contentsOfFile: capture + ".err", encoding: .utf8)) ?? ""
        return ProcessOutput(status: process.terminationStatus, stdout: out, stderr: err)
    }

    private func removeFiles() { Self.removeFiles(capture) }

    private static func removeFiles(_ capture: String) {
        for suffix in [".out", ".err", ".in"] { try? FileManager.default.removeItem(atPath: capture + suffix) }
    }

    /// Runs `executable` to completion (see `init` for the parameters).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil,
        mergingOutput: Bool = false
    ) throws -> ProcessOutput {
        try ChildRun(executable, arguments, environment: environment, stdin: stdin, mergingOutput: mergingOutput)
            .finish()
    }
}
