import Foundation
import QuireCore
import QuireProtocol
import Synchronization
import Testing

@testable import QuireSync

/// A large push goes gzip-compressed, but only to a server that said it takes that (asked
/// first when the process has heard nothing from it yet).
@Suite struct SyncCompressionTests {
    static func creates(_ count: Int) -> [Op] {
        var generator = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        return (0..<count).map { index in
            Op(
                id: generator.next(now: Date(), using: &random), item: generator.next(now: Date(), using: &random),
                kind: .create, baseRev: 0,
                fields: [
                    .title: FieldChange(from: .null, to: .string("Item \(index)")),
                    .body: FieldChange(from: .null, to: .string("Line one of item \(index)\nLine two\n")),
                ])
        }
    }

    @Test func aLargePushIsCompressedOnceTheServerHasSaidItTakesGzip() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let transport = HTTPSyncTransport(
            baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        let device = UUID().uuidString.lowercased()

        // Nothing has been heard from this server yet: before the first large push the
        // transport asks the health endpoint, whose answer says `Accept-Encoding: gzip`, so
        // even the first push goes compressed (a fresh `quire sync` sends what the app sends).
        #expect(HTTPSyncTransport.serversTakingGzip.withLock { $0[server.baseURL] } == nil)
        let first = SyncRequest(device: device, cursor: nil, limit: 1, ops: Self.creates(100))
        let plain = try await transport.sync(first)
        #expect(plain.bytesSent * 3 < first.compactJSON().count, "\(plain.bytesSent) for \(first.compactJSON().count)")
        #expect(plain.value.results.allSatisfy { $0.status == .applied })

        // The next large push is compressed too, and applies.
        let second = SyncRequest(device: device, cursor: plain.value.cursor, limit: 1, ops: Self.creates(100))
        let packed = try await transport.sync(second)
        #expect(
            packed.bytesSent * 3 < second.compactJSON().count,
            "\(packed.bytesSent) bytes for \(second.compactJSON().count)")
        #expect(packed.value.results.map(\.status) == Array(repeating: .applied, count: 100))

        // A small request stays plain: gzip's framing would cost more than it saves.
        let small = SyncRequest(device: device, cursor: packed.value.cursor, limit: 1, ops: [])
        #expect(try await transport.sync(small).bytesSent == small.compactJSON().count)

        // Every item of both pushes is on the server (read as another device: the server does
        // not send a device its own writes back).
        let reader = UUID().uuidString.lowercased()
        var cursor: String?
        var seen = 0
        repeat {
            let page = try await transport.sync(SyncRequest(device: reader, cursor: cursor, limit: 500, ops: []))
            seen += page.value.changes.count
            cursor = page.value.more ? page.value.cursor : nil
        } while cursor != nil
        #expect(seen == 200)
    }
}
