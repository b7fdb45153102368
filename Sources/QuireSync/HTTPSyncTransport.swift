import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import QuireProtocol
import Synchronization

/// `SyncTransport` over HTTP(S) with AsyncHTTPClient.
///
/// Uses one process-wide client (nothing to shut down, connections reused across rounds) with
/// a deadline on every request, so a server that stops answering costs at most `timeout` and
/// then counts as unreachable.
public struct HTTPSyncTransport: SyncTransport {
    /// The client every transport of the process shares.
    ///
    /// Unlike `HTTPClient.shared`, it does not keep retrying a connection that cannot be made
    /// until the request's deadline: a server that is down or refuses connections counts as
    /// unreachable at once, so `quire sync` exits 3 right away instead of after `timeout`, and
    /// the worker's own backoff decides when to try again.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        let belowTheUI = loops.withLock { loops in
            loops.chosen = true
            return loops.belowTheUI
        }
        let group: any EventLoopGroup =
            belowTheUI
            ? BackgroundThread.startingThreadsBelowTheUI {
                MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
            }
            : HTTPClient.defaultEventLoopGroup
        return HTTPClient(eventLoopGroup: group, configuration: configuration)
    }()

    /// Whether the client's event loops run below the UI, and whether that is settled (the
    /// client is made at the first request).
    private static let loops = Mutex<(belowTheUI: Bool, chosen: Bool)>((false, false))

    /// Runs every request of this process, and the hint stream, on event loops of their own
    /// below the app's UI (at the lanes' priority, `BackgroundThread`); the app asks before its
    /// first request. False, changing nothing, once a request has been made.
    ///
    /// Those loops write each request to its socket. On loopback a write carries the server's
    /// side of TCP too, and a kernel built without preemption finishes it before a key's thread
    /// woken on that core may run: in a test program, a 1 MiB write held such a thread 0.15 ms
    /// at the median and 0.6 ms at the 99th percentile. Left to the shared loops, their
    /// priority was that of whichever thread made the first request: the hint stream's, at
    /// normal priority, in the app; a sync lane's, at nice 10, in the bench, which so did not
    /// measure the app.
    @discardableResult
    public static func sendRequestsBelowTheUI() -> Bool {
        loops.withLock { loops in
            guard !loops.chosen else { return false }
            loops.belowTheUI = true
            return true
        }
    }

    /// What each server's last answer said about gzip-compressed requests (`Accept-Encoding:
    /// gzip` or not), by base URL, for the life of the process. A server missing here has not
    /// answered yet.
    static let serversTakingGzip = Mutex<[String: Bool]>([:])

    /// The server's base URL, without a trailing slash (`https://sync.example.com`).
    public let baseURL: String
    let token: String
    public let timeout: TimeInterval
    /// The largest answer accepted, in bytes.
    public let maxAnswerBytes: Int
    /// The clock a `Retry-After` date is measured against.
    let now: @Sendable () -> Date

    public init(
        baseURL: String, token: String, timeout: TimeInterval = 30, maxAnswerBytes: Int = 256 << 20,
        now: @escaping @Sendable () -> Date
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.token = token
        self.timeout = timeout
        self.maxAnswerBytes = maxAnswerBytes
        self.now = now
    }

    public func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
        try await exchange(
            method: .POST, path: SyncProtocol.syncPath, body: Data(request.compactJSON()),
            fast: SyncResponse.readCompact)
    }

    public func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
        var query = "?limit=\(limit)"
        if let after { query += "&after=\(after)" }
        return try await exchange(method: .GET, path: SyncProtocol.snapshotPath + query, body: nil)
    }

    /// The account's key ring, or nil when the account is not encrypted (404).
    public func keyRing() async throws(SyncTransportError) -> KeyRingDocument? {
        do {
            let answer: SyncExchange<KeyRingDocument> = try await exchange(
                method: .GET, path: SyncProtocol.keyringPath, body: nil)
            return answer.value
        } catch {
            if case .status(404, _, _) = error { return nil }
            throw error
        }
    }

    /// Stores `document` (its `version`: the one the ring was made from); answers the new
    /// version. 409 when another device stored one first.
    public func storeKeyRing(_ document: KeyRingDocument) async throws(SyncTransportError) -> Int {
        struct Stored: Decodable, Sendable { var version: Int }
        let body: Data
        do {
            body = try JSONEncoder().encode(document)
        } catch {
            throw .invalidAnswer("the key ring could not be encoded: \(error)")
        }
        let stored: SyncExchange<Stored> = try await exchange(method: .PUT, path: SyncProtocol.keyringPath, body: body)
        return stored.value.version
    }

    /// A request body as Quire sends it: gzip-compressed when it is at least
    /// `SyncProtocol.compressionThreshold` bytes and the server said it takes gzip (a
    /// compression that fails sends the body as it is). Public for the load generator, whose
    /// devices must cost the server what real ones do.
    public static func requestBody(_ body: Data, serverTakesGzip: Bool) -> (buffer: ByteBuffer, compressed: Bool) {
        var buffer = ByteBuffer(bytes: body)
        if body.count >= SyncProtocol.compressionThreshold, serverTakesGzip,
            let packed = try? buffer.compress(with: .gzip())
        {
            return (packed, true)
        }
        return (buffer, false)
    }

    /// Whether an answer's headers say its server takes gzip-compressed requests.
    public static func takesGzip(_ headers: HTTPHeaders) -> Bool {
        headers[canonicalForm: "Accept-Encoding"].contains { $0.lowercased() == SyncProtocol.requestCoding }
    }

    /// `fast` reads the answer in the shape a Quire server writes it; anything else (or nil
    /// from it) goes through `JSONDecoder`.
    private func exchange<Answer: Decodable & Sendable>(
        method: HTTPMethod, path: String, body: Data?, fast: ((UnsafeBufferPointer<UInt8>) -> Answer?)? = nil
    ) async throws(SyncTransportError) -> SyncExchange<Answer> {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "application/json")
        var sentBytes = 0
        var compressed = false
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            let buffer: ByteBuffer
            (buffer, compressed) = Self.requestBody(body, serverTakesGzip: await serverTakesGzip(before: body.count))
            if compressed { request.headers.add(name: "Content-Encoding", value: SyncProtocol.requestCoding) }
            sentBytes = buffer.readableBytes
            request.body = .bytes(buffer)
        }
        let status: Int
        let retryAfterHeader: String?
        let answer: ByteBuffer
        do {
            let response = try await Self.client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            status = Int(response.status.code)
            retryAfterHeader = response.headers.first(name: "Retry-After")
            let takesGzip = Self.takesGzip(response.headers)
            Self.serversTakingGzip.withLock { $0[baseURL] = takesGzip }
            answer = try await response.body.collect(upTo: maxAnswerBytes)
        } catch {
            throw .unreachable(Self.describe(error))
        }
        if status == 200, let fast,
            let value = answer.readableBytesView.withContiguousStorageIfAvailable({ fast($0) }) ?? nil
        {
            return SyncExchange(value: value, bytesSent: sentBytes, bytesReceived: answer.readableBytes)
        }
        let bytes = Data(answer.readableBytesView)
        if compressed, status == 415 {
            // Something between here and the server does not take what the server said it
            // takes: send uncompressed from now on (this round fails and is retried).
            Self.serversTakingGzip.withLock { $0[baseURL] = false }
        }
        guard status == 200 else {
            let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: bytes)
            throw .status(status, error: errorBody, retryAfter: RetryAfter.seconds(from: retryAfterHeader, now: now()))
        }
        do {
            let value = try JSONDecoder().decode(Answer.self, from: bytes)
            return SyncExchange(value: value, bytesSent: sentBytes, bytesReceived: bytes.count)
        } catch {
            throw .invalidAnswer(String(describing: error))
        }
    }

    /// Whether a body of `size` bytes may go compressed. SPEC lets a device compress only once
    /// the server has said it takes gzip; a process whose first request is a large push (`quire
    /// sync` after a day of offline edits) has heard nothing yet, so it first asks the health
    /// endpoint, a few hundred bytes, instead of sending the push as it is. The app, which has
    /// usually heard already, skips the question: both send the same bytes.
    private func serverTakesGzip(before size: Int) async -> Bool {
        if let known = Self.serversTakingGzip.withLock({ $0[baseURL] }) { return known }
        guard size >= SyncProtocol.compressionThreshold else { return false }
        var probe = HTTPClientRequest(url: baseURL + SyncProtocol.healthPath)
        probe.method = .GET
        guard let response = try? await Self.client.execute(probe, timeout: .milliseconds(Int64(timeout * 1000))) else {
            return false
        }
        _ = try? await response.body.collect(upTo: 64 << 10)
        let takesGzip = Self.takesGzip(response.headers)
        Self.serversTakingGzip.withLock { $0[baseURL] = takesGzip }
        return takesGzip
    }

    /// One line for a network failure (AsyncHTTPClient's errors describe themselves tersely).
    static func describe(_ error: any Error) -> String {
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer in time"
            case .remoteConnectionClosed: return "the connection was closed"
            default: return String(describing: clientError)
            }
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}
