import Foundation
import Hummingbird
import Logging
import NIOCore
import QuireProtocol
import ServiceLifecycle

/// Keeps the hint streams honest while the server runs: closes the streams of revoked tokens
/// within a second, sends heartbeats to idle ones, relays feed moves written by other server
/// processes (PostgreSQL `NOTIFY`), and closes every stream at shutdown.
struct HintService: Service {
    let hub: HintHub
    let store: any SyncStore
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await watch() }
                group.addTask {
                    await store.listenForFeedMoves(logger: logger) { user, seq in hub.publish(user: user, seq: seq) }
                }
                await group.waitForAll()
            }
        }
        hub.closeAll()
    }

    /// Once a second: revoked tokens lose their streams; every `heartbeat`, idle streams beat.
    private func watch() async {
        var sinceBeat: Duration = .zero
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(1))
            } catch {
                return
            }
            sinceBeat += .seconds(1)
            if sinceBeat >= hub.limits.heartbeat {
                sinceBeat = .zero
                hub.beat()
            }
            let open = hub.tokenHashes
            guard !open.isEmpty else { continue }
            do {
                hub.closeStreams(keepingTokens: try await store.validTokenHashes(open))
            } catch {
                logger.warning("could not check the tokens of hint streams", metadata: ["error": "\(error)"])
            }
        }
    }
}

extension SyncService {
    /// `GET /v1/hints`: a Server-Sent Events stream that says, for the token's user only, that
    /// the feed moved (`event: feed`, `data: {"seq":N}`), first at once with the current
    /// number, then whenever it moves, with `: heartbeat` comments while nothing happens.
    func hints(_ request: Request) async throws -> Response {
        let owner = try await authenticate(request)
        let seq = try await guarded { try await store.feedSeq(user: owner.user) }
        let stream: HintStream
        do {
            stream = try hub.open(user: owner.user, tokenHash: owner.tokenHash, seq: seq)
        } catch {
            switch error {
            case .tooManyForUser(let limit):
                throw APIError.rateLimited(retryAfter: 30, "this user already holds \(limit) hint streams")
            case .tooMany(let limit):
                throw APIError.rateLimited(retryAfter: 30, "the server already holds \(limit) hint streams")
            }
        }
        let (hub, metrics, lifetime) = (hub, metrics, hub.limits.lifetime)
        metrics.hintStreams(opened: 1)
        let body = ResponseBody { writer in
            defer {
                hub.close(stream)
                metrics.hintStreams(opened: -1)
            }
            let closing = ContinuousClock.now + lifetime
            // The stream ends at its lifetime even when nothing wakes it then (no move, no beat).
            let closer = Task {
                try? await Task.sleep(until: closing)
                stream.finish()
            }
            defer { closer.cancel() }
            var sent: Int64?
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            func tell() async throws {
                let seq = stream.seq
                if seq != sent {
                    try await writer.write(ByteBuffer(string: "event: feed\ndata: {\"seq\":\(seq)}\n\n"))
                    sent = seq
                    metrics.hintSent()
                } else {
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                }
            }
            try await tell()
            // A server shutting down waits for open requests: the stream ends at once then.
            try await withGracefulShutdownHandler {
                for await _ in stream.wakes where ContinuousClock.now < closing {
                    try await tell()
                }
            } onGracefulShutdown: {
                stream.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: body)
    }
}
