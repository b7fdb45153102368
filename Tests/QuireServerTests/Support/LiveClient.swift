import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireProtocol
import Testing

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

    /// POST /v1/sync that must answer 200.
    func round(_ base: String, token: String, _ request: SyncRequest) async throws -> SyncResponse {
        let (status, body) = try await sync(base, token: token, request)
        try #require(status == 200, "\(status): \(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(SyncResponse.self, from: Data(body))
    }

    /// Every live item id the server holds for the token's user, page by page.
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
}
