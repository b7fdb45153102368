import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// Request bodies may come gzip-compressed; the server says so in every answer, reads them as
/// their JSON, and refuses what it cannot read (or what inflates past the limit) changing nothing.
@Suite struct CompressedBodyTests {
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        var packed = try buffer.compress(with: .gzip())
        return packed.readBytes(length: packed.readableBytes) ?? []
    }

    @Test(arguments: StoreKind.available)
    func aGzipBodyIsReadAsItsJSONAndEveryAnswerSaysSo(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let items = (0..<50).map { _ in Make.id() }
            let request = SyncRequest(
                device: Make.id(), cursor: nil, ops: items.map { Make.create($0, title: "Note \($0)") })
            let json = request.compactJSON()
            let body = try Self.gzip(json)
            #expect(body.count * 3 < json.count, "50 creates compress to under a third")
            let response = try await server.send(
                .post, SyncProtocol.syncPath, token: token, body: body, headers: [.contentEncoding: "gzip"])
            #expect(response.status == .ok)
            #expect(response.headers[.acceptEncoding] == "gzip")
            let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(buffer: response.body))
            #expect(answer.results.map(\.status) == Array(repeating: .applied, count: 50))
            var reader = DeviceModel()
            #expect(Set(try await server.round(&reader, token).changes.map(\.id)) == Set(items))
            // Errors say it too, so a client learns it from any answer.
            #expect(try await server.send(.get, "/v1/snapshot", token: "qt_wrong").headers[.acceptEncoding] == "gzip")
        }
    }

    @Test(arguments: StoreKind.available)
    func whatCannotBeReadIsRefusedAndChangesNothing(_ kind: StoreKind) async throws {
        try await withHarness(kind, configure: { $0.limits.maxRequestBytes = 64 << 10 }) { server in
            let token = try await server.addUser("ann")
            let user = try await server.user(token)
            let before = try await server.store.stats(user: user)
            let json = SyncRequest(device: Make.id(), cursor: nil, ops: [Make.create(Make.id(), title: "lost?")])
                .compactJSON()

            let other = try await server.send(
                .post, SyncProtocol.syncPath, token: token, body: json, headers: [.contentEncoding: "br"])
            let (otherStatus, otherBody) = try server.failure(other)
            #expect((otherStatus, otherBody.error) == (415, .badRequest))
            #expect(otherBody.message.contains("Content-Encoding 'br'"))

            let notGzip = try await server.send(
                .post, SyncProtocol.syncPath, token: token, body: json, headers: [.contentEncoding: "gzip"])
            let (plainStatus, plainBody) = try server.failure(notGzip)
            #expect((plainStatus, plainBody.error) == (400, .badRequest))
            #expect(plainBody.message.contains("not valid gzip"))

            // 1 MiB of spaces and then the request: a few kilobytes sent, far past 64 KiB inflated.
            let bomb = try Self.gzip(Array(repeating: UInt8(ascii: " "), count: 1 << 20) + json)
            #expect(bomb.count < 64 << 10)
            let (bombStatus, bombBody) = try server.failure(
                try await server.send(
                    .post, SyncProtocol.syncPath, token: token, body: bomb, headers: [.contentEncoding: "gzip"]))
            #expect((bombStatus, bombBody.error) == (413, .tooLarge))
            #expect(bombBody.message.contains("decompressed"))

            #expect(try await server.store.stats(user: user) == before, "nothing refused was applied")
        }
    }
}
