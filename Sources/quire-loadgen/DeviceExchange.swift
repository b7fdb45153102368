import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireProtocol
import QuireSync

/// One sync exchange made the way Quire's own devices make it (`HTTPSyncTransport`): the
/// compact request, gzip-compressed once the server has said it takes gzip, and the answer read
/// in the shape the server writes it. A load generator sending plain JSON would cost the server
/// a `JSONDecoder` per round, and itself a slower reader, that no Quire device pays.
struct DeviceExchange {
    let client: HTTPClient
    let url: String
    let token: String
    /// What the last answer's headers said (see `HTTPSyncTransport.takesGzip`).
    private(set) var serverTakesGzip = false

    init(client: HTTPClient, url: String, token: String) {
        self.client = client
        self.url = url
        self.token = token
    }

    /// The answer's status, and the answer when the status is 200; the body when it is not.
    mutating func sync(_ sync: SyncRequest, timeout: TimeAmount) async throws -> (
        status: HTTPResponseStatus, answer: SyncResponse?, body: ByteBuffer
    ) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let (body, compressed) = HTTPSyncTransport.requestBody(
            Data(sync.compactJSON()), serverTakesGzip: serverTakesGzip)
        if compressed { request.headers.add(name: "Content-Encoding", value: SyncProtocol.requestCoding) }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 256 << 20)
        serverTakesGzip = HTTPSyncTransport.takesGzip(response.headers)
        guard response.status == .ok else { return (response.status, nil, bytes) }
        if let fast = bytes.readableBytesView.withContiguousStorageIfAvailable(SyncResponse.readCompact) ?? nil {
            return (response.status, fast, bytes)
        }
        let answer = try JSONDecoder().decode(SyncResponse.self, from: Data(bytes.readableBytesView))
        return (response.status, answer, bytes)
    }
}
