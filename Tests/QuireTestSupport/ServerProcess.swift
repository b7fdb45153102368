import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a child process did not do what a test needed of it.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The real `quire-server` binary, started on an ephemeral loopback port.
public final class ServerProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    public private(set) var port = 0
    public let logURL: URL
    public let scheme: String

    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }
    /// The server's process id (to send it signals or set its limits).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The `quire-server` built beside this test bundle.
    public static var binary: URL {
        get throws {
            guard let path = BuiltProduct.path("quire-server") else {
                throw ChildProcessError("quire-server was not found beside the test bundle")
            }
            return URL(fileURLWithPath: path)
        }
    }

    /// The `quire` client built beside `quire-server`.
    public static var client: URL {
        get throws { try binary.deletingLastPathComponent().appendingPathComponent("quire") }
    }

    /// Runs a one-shot command (`user add`, …; or another `executable`, such as `client`) and
    /// answers its exit status, stdout and stderr.
    public static func command(
        _ arguments: [String], executable: URL? = nil, environment: [String: String]? = nil
    ) throws -> (status: Int32, out: String, err: String) {
        let output = try ChildRun.run(try (executable ?? binary).path, arguments, environment: environment)
        return (output.status, output.stdout, output.stderr)
    }

    /// Starts `quire-server serve --port 0 ARGUMENTS` and waits (up to a deadline) for the log
    /// line that names its port, suspending between looks.
    public convenience init(serve arguments: [String]) async throws {
        try self.init(launching: arguments)
        var found: Int?
        await suspendUntil(timeout: 60, every: 0.01) {
            found = listeningPort()
            return found != nil || !process.isRunning
        }
        try listening(on: found)
    }

    /// As `init(serve:)`, blocking the calling thread while it waits (for synchronous tests).
    public convenience init(serveBlocking arguments: [String]) throws {
        try self.init(launching: arguments)
        var found: Int?
        waitUntil(timeout: 60, every: 0.01) {
            found = listeningPort()
            return found != nil || !process.isRunning
        }
        try listening(on: found)
    }

    private init(launching arguments: [String]) throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("quire-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = try SpawnedProcess(
            try ServerProcess.binary.path, ["serve", "--port", "0", "--log-level", "info"] + arguments,
            output: .file(logURL.path), error: .sameAsOutput)
        scheme = arguments.contains("--tls-cert") ? "https" : "http"
    }

    deinit {
        // A test that did not `stop()` its server must not leave it running.
        kill()
    }

    /// Kills the server at once (SIGKILL, which no thread can block) and waits for it to go.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The port of the log line `listening on http://127.0.0.1:PORT`, once it is written.
    private func listeningPort() -> Int? {
        let text = log
        guard let range = text.range(of: #"listening on https?://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
        else { return nil }
        return Int(text[range].split(separator: ":").last ?? "")
    }

    private func listening(on found: Int?) throws {
        if let found {
            port = found
            return
        }
        if !process.isRunning {
            throw ChildProcessError("quire-server exited (\(process.terminationStatus)) before listening:\n\(log)")
        }
        process.terminate()
        throw ChildProcessError("quire-server did not start within 60 s:\n\(log)")
    }

    /// Sends SIGTERM (or another signal).
    public func signal(_ number: Int32 = SIGTERM) {
        Glibc.kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit, up to a deadline; its exit status.
    public func waitForExit(within seconds: TimeInterval = 30) async throws -> Int32 {
        guard await suspendUntil(timeout: seconds, every: 0.01, { !process.isRunning }) else {
            kill()
            throw ChildProcessError("quire-server did not exit in time")
        }
        return process.terminationStatus
    }

    /// Stops the server (if it still runs) and removes its log.
    public func stop() async {
        if process.isRunning {
            signal()
            _ = try? await waitForExit()
        }
        try? FileManager.default.removeItem(at: logURL)
    }

    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
}
