import Foundation
import Synchronization

/// The open hint streams of this server process, and the one place that wakes them.
///
/// A hint says only that a user's feed moved to a sequence number, never what changed. Each
/// stream keeps the newest number it was told and a wake-up signal that holds at most one
/// pending wake: a burst of thousands of writes wakes a slow reader once, with the newest
/// number, and publishing never waits for any reader. Thread-safe (a mutex guards the table).
final class HintHub: Sendable {
    struct Limits: Sendable, Hashable {
        /// Streams one user may hold at once (one per device is the expected use).
        var perUser = 16
        /// Streams this process holds at once, for all users.
        var total = 2_000
        /// How often an idle stream gets a heartbeat comment (so proxies and clients see it alive).
        var heartbeat: Duration = .seconds(15)
        /// A stream is closed after this long; the device reconnects (and re-authenticates).
        var lifetime: Duration = .seconds(30 * 60)
    }

    /// Why a stream could not be opened.
    enum Refusal: Error, Equatable {
        case tooManyForUser(Int)
        case tooMany(Int)
    }

    let limits: Limits
    private let table = Mutex<[Int: HintStream]>([:])
    private let nextID = Atomic<Int>(0)

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Opens a stream for `user`, authenticated by `tokenHash`, starting from `seq`.
    func open(user: UserID, tokenHash: String, seq: Int64) throws(Refusal) -> HintStream {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let stream = HintStream(id: id, user: user, tokenHash: tokenHash, seq: seq)
        let refusal: Refusal? = table.withLock { streams in
            if streams.count >= limits.total { return .tooMany(limits.total) }
            if streams.values.count(where: { $0.user == user }) >= limits.perUser {
                return .tooManyForUser(limits.perUser)
            }
            streams[id] = stream
            return nil
        }
        if let refusal { throw refusal }
        return stream
    }

    /// Forgets a stream (its reader is gone).
    func close(_ stream: HintStream) {
        _ = table.withLock { $0.removeValue(forKey: stream.id) }
        stream.finish()
    }

    /// Tells every stream of `user` that its feed reached `seq`.
    func publish(user: UserID, seq: Int64) {
        for stream in streams(where: { $0.user == user }) { stream.advance(to: seq) }
    }

    /// Wakes every stream, so that idle ones send a heartbeat.
    func beat() {
        for stream in streams(where: { _ in true }) { stream.wake() }
    }

    /// Closes the streams whose token is not in `valid` (revoked since they opened).
    func closeStreams(keepingTokens valid: Set<String>) {
        for stream in streams(where: { !valid.contains($0.tokenHash) }) { close(stream) }
    }

    /// Closes every stream (the server is shutting down).
    func closeAll() {
        for stream in streams(where: { _ in true }) { close(stream) }
    }

    /// The token hashes of the open streams.
    var tokenHashes: Set<String> { Set(streams(where: { _ in true }).map(\.tokenHash)) }

    var count: Int { table.withLock { $0.count } }

    private func streams(where condition: (HintStream) -> Bool) -> [HintStream] {
        table.withLock { Array($0.values.filter(condition)) }
    }
}

/// One device's hint stream: the newest feed sequence number it was told, and the wake-ups
/// its writer waits on.
final class HintStream: Sendable {
    let id: Int
    let user: UserID
    let tokenHash: String
    /// Each element means "look again"; at most one waits, so wakes coalesce.
    let wakes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let latest: Mutex<Int64>

    init(id: Int, user: UserID, tokenHash: String, seq: Int64) {
        self.id = id
        self.user = user
        self.tokenHash = tokenHash
        latest = Mutex(seq)
        (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The newest sequence number published for this stream's user.
    var seq: Int64 { latest.withLock { $0 } }

    func advance(to seq: Int64) {
        latest.withLock { $0 = max($0, seq) }
        continuation.yield()
    }

    func wake() { continuation.yield() }

    func finish() { continuation.finish() }
}
