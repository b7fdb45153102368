import Foundation
import Testing

/// `quire remote set` checks the token when the server answers: a refused token is said at
/// once (and saved all the same), and an unreachable server is no error.
@Suite struct SyncRemoteSetTests {
    @Test func aRefusedTokenIsSaidAndStillSaved() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let home = NSTemporaryDirectory() + "quire-remote-set-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let good = try await QuireBinary.execute(["remote", "set", server.baseURL, "--token", token], home: home)
        #expect(good.status == 0 && good.stderr.isEmpty, "\(good.stderr)")

        let wrong = try await QuireBinary.execute(
            ["remote", "set", server.baseURL, "--token", "not-a-token"], home: home)
        #expect(wrong.status == 0)
        #expect(wrong.stdout.hasPrefix("Remote set to \(server.baseURL)"))
        #expect(wrong.stderr.hasPrefix("quire: the server refused this token (401)"), "\(wrong.stderr)")
        let credentials = try String(contentsOfFile: home + "/credentials", encoding: .utf8)
        #expect(credentials.contains("not-a-token"), "saved all the same")

        let offline = try await QuireBinary.execute(
            ["remote", "set", "http://127.0.0.1:1", "--token", "x"], home: home)
        #expect(offline.status == 0 && offline.stderr.isEmpty, "\(offline.stderr)")
    }
}
