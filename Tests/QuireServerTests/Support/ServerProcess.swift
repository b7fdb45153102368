import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireProtocol
import Testing

/// The real `quire-server` binary, started on an ephemeral loopback port.
final class ServerProcess: @unchecked Sendable {
    // Process is not Sendable; this wrapper only reads its pid and exit status after start.
    private let process: Process
    let port: Int
    let logURL: URL
    let scheme: String

    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    /// The `quire-server` built beside this test bundle.
    static var binary: URL {
        get throws {
            var candidates: [URL] = []
            if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
            }
            candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
            candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
            candidates.append(Bundle.main.bundleURL)
            for folder in candidates {
                var current = folder
                for _ in 0..<4 {
                    let url = current.appendingPathComponent("quire-server")
                    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
                    current = current.deletingLastPathComponent()
                }
            }
            throw SchemaError("quire-server was not found beside the test bundle (\(candidates.map(\.path)))")
        }
    }

    /// The `quire` client built beside `quire-server`.
    static var client: URL {
        get throws { try binary.deletingLastPathComponent().appendingPathComponent("quire") }
    }

    /// Runs a one-shot command (`user add`, …; or another `executable`) and answers its exit
    /// status, stdout and stderr.
    static func command(
        _ arguments: [String], executable: URL? = nil, environment: [String: String]? = nil
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try executable ?? binary
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Starts `quire-server serve --port 0 ARGUMENTS` and waits (up to a deadline) for the log
    /// line that names its port.
    init(serve arguments: [String]) async throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("quire-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process = Process()
        process.executableURL = try ServerProcess.binary
        process.arguments = ["serve", "--port", "0", "--log-level", "info"] + arguments
        process.standardError = log
        process.standardOutput = log
        try process.run()
        scheme = arguments.contains("--tls-cert") ? "https" : "http"

        let deadline = ContinuousClock.now + .seconds(60)
        var found: Int?
        while found == nil {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on https?://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last ?? "")
            } else if !process.isRunning {
                throw SchemaError("quire-server exited (\(process.terminationStatus)) before listening:\n\(text)")
            } else if ContinuousClock.now > deadline {
                process.terminate()
                throw SchemaError("quire-server did not start within 60 s:\n\(text)")
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        port = found ?? 0
    }

    /// Sends SIGTERM (or another signal).
    func signal(_ number: Int32 = SIGTERM) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit, up to a deadline; its exit status.
    func waitForExit(within limit: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw SchemaError("quire-server did not exit in time")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// Stops the server (if it still runs) and removes its log.
    func stop() async {
        if process.isRunning {
            signal()
            _ = try? await waitForExit()
        }
        try? FileManager.default.removeItem(at: logURL)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
}

/// A tiny HTTP client for the live tests.
struct LiveClient: Sendable {
    let client: HTTPClient

    static let plain = LiveClient(client: HTTPClient.shared)

    /// POST /v1/sync; the status and the body.
    func sync(
        _ base: String, token: String, _ request: SyncRequest, timeout: TimeAmount = .seconds(60)
    ) async throws -> (Int, [UInt8]) {
        try await send(
            base + SyncProtocol.syncPath, method: .POST, token: token, body: Array(try JSONEncoder().encode(request)),
            timeout: timeout)
    }

    func send(
        _ url: String, method: HTTPMethod = .GET, token: String? = nil, body: [UInt8]? = nil,
        timeout: TimeAmount = .seconds(60)
    ) async throws -> (Int, [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: timeout)
        let collected = try await response.body.collect(upTo: 256 << 20)
        return (Int(response.status.code), Array(buffer: collected))
    }

    /// Every live item id the server holds for the token's user, read page by page.
    func liveItemIDs(_ base: String, token: String) async throws -> Set<String> {
        var ids = Set<String>()
        var after: String?
        repeat {
            let url = base + SyncProtocol.snapshotPath + "?limit=5000" + (after.map { "&after=\($0)" } ?? "")
            let (status, body) = try await send(url, token: token)
            try #require(status == 200)
            let page = try JSONDecoder().decode(SnapshotPage.self, from: Data(body))
            ids.formUnion(page.items.map(\.id))
            after = page.next
        } while after != nil
        return ids
    }

    /// POST /v1/sync that must answer 200.
    func round(_ base: String, token: String, _ request: SyncRequest) async throws -> SyncResponse {
        let (status, body) = try await sync(base, token: token, request)
        try #require(status == 200, "\(status): \(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(SyncResponse.self, from: Data(body))
    }
}
