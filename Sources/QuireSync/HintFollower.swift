import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireProtocol
import Synchronization

/// Whether this device hears of other devices' writes at once or finds them by polling.
public enum HintState: Hashable, Sendable {
    /// A hint stream is open: a write elsewhere starts a pull within moments.
    case live
    /// No stream; the periodic pull finds changes. `reason` says why in a plain sentence, for
    /// the status screen; `detail` is what the connection's failure said, shown when asked for.
    case polling(reason: String, detail: String? = nil)

    public var isLive: Bool { self == .live }
}

/// Keeps one hint stream (`GET /v1/hints`) open to the configured server while the app runs,
/// and calls `onMove` when the user's feed moves past this device's cursor.
///
/// It reconnects after a dropped, stalled or garbled stream with exponential backoff and full
/// jitter (1 s doubling to 60 s); a server without the endpoint (an older one) or a refused
/// token means polling until the settings change (`reconnect()`). Hints that arrive while a
/// pull is already asked for cost nothing more: the worker runs at most one round after the
/// one in progress. Thread-safe: its state is behind a mutex, its loop is one task.
public final class HintFollower: Sendable {
    /// Where to connect, read again at every connection (a new token takes effect).
    public typealias Connect = @Sendable () -> SyncRemote?

    /// A stream that sends nothing for this long (two of the server's 15 s heartbeats) is
    /// dropped: the server or the network between is gone even though no error came.
    public static let stallTimeout: Duration = .seconds(30)
    /// At most one pull is asked for per this long: a burst of thousands of hints (another
    /// device importing, say) costs a few pulls, each of which brings everything so far.
    public static let pullGap: Duration = .milliseconds(250)

    private let connect: Connect
    private let live: @Sendable () -> Bool
    private let cursorSeq: @Sendable () -> Int64?
    private let onMove: @Sendable () -> Void
    private let onState: @Sendable (HintState) -> Void
    private let state = Mutex<(task: Task<Void, Never>?, current: HintState, generation: Int, backingOff: Bool)>(
        (nil, .polling(reason: "not started"), 0, false))

    /// - Parameters:
    ///   - cursorSeq: the sequence number of this device's pull cursor (nil before its first).
    ///   - onMove: called when a hint says the feed is beyond the cursor.
    ///   - onState: called when the state changes.
    public init(
        connect: @escaping Connect, live: @escaping @Sendable () -> Bool = { true },
        cursorSeq: @escaping @Sendable () -> Int64?,
        onMove: @escaping @Sendable () -> Void, onState: @escaping @Sendable (HintState) -> Void = { _ in }
    ) {
        self.connect = connect
        self.live = live
        self.cursorSeq = cursorSeq
        self.onMove = onMove
        self.onState = onState
    }

    public var current: HintState { state.withLock { $0.current } }

    public func start() {
        let task = Task { await self.loop() }
        state.withLock {
            $0.task?.cancel()
            $0.task = task
        }
    }

    public func stop() {
        state.withLock {
            $0.task?.cancel()
            $0.task = nil
        }
    }

    /// The settings changed: drop the stream (or the wait) and connect again at once.
    public func reconnect() {
        state.withLock { $0.generation += 1 }
    }

    /// The server just answered a sync round: if the stream is waiting out a backoff after it
    /// dropped, it connects now, so that `live` comes back with the server and not a minute on.
    public func serverAnswered() {
        state.withLock { if $0.backingOff { $0.generation += 1 } }
    }

    private var generation: Int { state.withLock { $0.generation } }

    // MARK: - The loop

    private func loop() async {
        var failures = 0
        var generator = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let seen = generation
            let outcome = await follow(seen: seen)
            if Task.isCancelled { return }
            let wait: Duration?
            switch outcome {
            case .reconnectNow:
                failures = 0
                wait = .zero
            case .dropped(let reason, let detail):
                set(.polling(reason: reason, detail: detail))
                failures += 1
                let ceiling = min(60.0, pow(2.0, Double(min(failures - 1, 6))))
                wait = .milliseconds(Int(Double.random(in: 0...ceiling, using: &generator) * 1000) + 200)
            case .untilSettingsChange(let reason):
                set(.polling(reason: reason))
                failures = 0
                wait = nil
            }
            if case .dropped = outcome { state.withLock { $0.backingOff = true } }
            await pause(wait, seen: seen)
            state.withLock { $0.backingOff = false }
        }
    }

    private enum Outcome {
        /// Connect again at once (the settings changed while connected).
        case reconnectNow
        /// The stream failed; try again after a backoff. The reason in words, the error as it came.
        case dropped(String, detail: String? = nil)
        /// Nothing will change until the settings do.
        case untilSettingsChange(String)
    }

    /// How often a wait looks whether `reconnect()` was called.
    private static let look: Duration = .milliseconds(100)

    /// Waits `duration` (forever when nil) or until `reconnect()` is called after `seen`.
    private func pause(_ duration: Duration?, seen: Int) async {
        let end = duration.map { ContinuousClock.now + $0 }
        while !Task.isCancelled, generation == seen, end.map({ ContinuousClock.now < $0 }) ?? true {
            try? await Task.sleep(for: HintFollower.look)
        }
    }

    /// One connection, from request to its end.
    private func follow(seen: Int) async -> Outcome {
        guard let remote = connect() else { return .untilSettingsChange("no remote is configured") }
        guard live() else { return .untilSettingsChange("live is off in config.toml") }
        var base = remote.url
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: base + SyncProtocol.hintsPath)
        request.headers.add(name: "Authorization", value: "Bearer \(remote.token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let opening = request
        let heard = Heard()
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    let response = try await HTTPSyncTransport.client.execute(opening, timeout: .seconds(15))
                    switch response.status.code {
                    case 200: break
                    case 404, 405:
                        return .untilSettingsChange("the server has no live hints (an older quire-server)")
                    case 401, 403:
                        return .untilSettingsChange("the server refused this device's token")
                    default:
                        return .dropped(
                            "the server turned the live connection down", detail: "HTTP \(response.status.code)")
                    }
                    self.set(.live)
                    var parser = HintStreamParser()
                    for try await chunk in response.body {
                        heard.now()
                        for signal in try parser.read(chunk.readableBytesView) {
                            if case .feed(let seq) = signal { heard.hint(seq) }
                        }
                    }
                    return .dropped("the server closed the live connection")
                } catch let garbage as HintStreamParser.Garbage {
                    return .dropped("the server sent something unreadable", detail: garbage.description)
                } catch {
                    return Task.isCancelled
                        ? nil : .dropped("the live connection to the server was lost", detail: "\(error)")
                }
            }
            group.addTask {
                // A stalled stream (no heartbeat) is as good as a dropped one.
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(5))
                    if heard.silence > HintFollower.stallTimeout {
                        return .dropped("the server went silent")
                    }
                }
                return nil
            }
            group.addTask {
                await self.pause(nil, seen: seen)
                return Task.isCancelled ? nil : .reconnectNow
            }
            group.addTask {
                // Asks for a pull as soon as a hint goes beyond what was asked for and beyond
                // the cursor, and then not again for `pullGap`.
                var asked: Int64 = -1
                var last = ContinuousClock.now - HintFollower.pullGap
                for await _ in heard.signals {
                    let since = ContinuousClock.now - last
                    if since < HintFollower.pullGap { try? await Task.sleep(for: HintFollower.pullGap - since) }
                    guard let latest = heard.latest, latest > asked else { continue }
                    asked = latest
                    if latest > (self.cursorSeq() ?? -1) {
                        last = .now
                        self.onMove()
                    }
                }
                return nil
            }
            // The first answer that says something decides; a task that was cancelled says nil.
            var first: Outcome?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .dropped("the live connection ended")
        }
    }

    private func set(_ new: HintState) {
        let changed = state.withLock { state -> Bool in
            guard state.current != new else { return false }
            state.current = new
            return true
        }
        if changed { onState(new) }
    }
}

/// When a stream last said anything, shared by its reader and its stall watch.
private final class Heard: Sendable {
    private let last = Mutex(ContinuousClock.now)
    private let newest = Mutex<Int64?>(nil)
    /// One element per "a hint came"; at most one waits, so a burst is one wake-up.
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func now() { last.withLock { $0 = .now } }

    var silence: Duration { ContinuousClock.now - last.withLock { $0 } }

    /// Keeps the newest feed sequence number a hint named.
    func hint(_ seq: Int64) {
        newest.withLock { $0 = max($0 ?? seq, seq) }
        signal.yield()
    }

    var latest: Int64? { newest.withLock { $0 } }
}
