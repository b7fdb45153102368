import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireCore
import QuireProtocol
import QuireStore
import QuireSync
import Synchronization

/// `quire-bench live`: how soon a change made on one device is on another, with the real
/// server, the real sync worker and hint stream of the app, and what idle hint streams cost
/// the server.
struct LiveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Live sync: save to other device, sync to other device, idle hint streams.")

    @Option(help: "The quire-server executable.")
    var server: String

    @Option(help: "Trials of each latency.")
    var trials = 50

    @Option(help: "Idle hint streams the server holds while a write is timed.")
    var idleStreams = 5_000

    func run() async throws {
        var lines: [String] = [
            "## Live sync",
            "",
            "Two devices, each a store on SQLite with the app's sync worker and hint stream, and the",
            "real `quire-server` on loopback. A change counts as arrived when it is in the other",
            "device's store: the app draws from there on its next frame (at most 16 ms later).",
            "Trials are half a second apart, as a person's saves are: a burst of writes is pulled",
            "at most every 250 ms (see `HintFollower.pullGap`).",
            "",
            "| measure | result | target |", "| --- | --- | --- |",
        ]
        lines += try await deviceToDevice()
        lines += try await idleStreamsCost()
        lines.append("")
        print(lines.joined(separator: "\n"))
    }

    // MARK: - Device to device

    private func deviceToDevice() async throws -> [String] {
        let bench = try BenchServer(binary: server)
        defer { bench.stop() }
        let a = try Device(server: bench)
        let b = try Device(server: bench)
        defer {
            a.stop()
            b.stop()
        }
        b.follower.start()
        try await until(seconds: 10, "b's hint stream is live") { b.follower.current.isLive }

        // A save in the app: the store write, then the worker pushes after its short pause.
        var saves: [Double] = []
        for trial in 0..<trials {
            let start = DispatchTime.now().uptimeNanoseconds
            let item = try a.database.create(NewItem(title: "saved \(trial)"))
            a.worker.nudge()
            try await until(seconds: 10, "item \(trial) reached b") { try b.database.item(item.id) != nil }
            saves.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            try await Task.sleep(for: .milliseconds(500))
        }
        // `quire sync` on A: from its end to B's store.
        var syncs: [Double] = []
        for trial in 0..<trials {
            let item = try a.database.create(NewItem(title: "synced \(trial)"))
            guard await a.engine.runToCompletion() == .caughtUp else { throw BenchFailure("a's sync failed") }
            let start = DispatchTime.now().uptimeNanoseconds
            try await until(seconds: 10, "item \(trial) reached b") { try b.database.item(item.id) != nil }
            syncs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            try await Task.sleep(for: .milliseconds(500))
        }
        let save = Stats(saves)
        let sync = Stats(syncs)
        return [
            "| save on A (0.3 s push pause included) to B's store, p50 / p99 of \(trials) | "
                + "\(ms(save.p50)) / \(ms(save.p99)) | p99 < 1 s |",
            "| `quire sync` done on A to B's store, p50 / p99 of \(trials) | \(ms(sync.p50)) / \(ms(sync.p99)) "
                + "| p99 < 300 ms |",
        ]
    }

    // MARK: - Idle streams

    private func idleStreamsCost() async throws -> [String] {
        let bench = try BenchServer(
            binary: server,
            serving: [
                "--hint-streams", String(idleStreams + 100), "--hint-streams-per-user", String(idleStreams),
                // Every stream comes from this one loopback address.
                "--max-connections", String(idleStreams + 200), "--max-connections-per-address",
                String(idleStreams + 200),
            ])
        defer { bench.stop() }
        let idleToken = try bench.addUser("idle")
        let before = bench.residentMegabytes() ?? 0

        let client = LiveBench.client

        let opened = Tally()
        let (url, token, count) = (bench.url, bench.token, idleStreams)
        let idle = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        _ = try? await LiveBench.read(url, token: idleToken, client: client, onOpen: { opened.add() }) {
                            _ in
                        }
                    }
                }
            }
        }
        defer { idle.cancel() }
        try await until(seconds: 120, "\(idleStreams) idle streams open") { opened.count >= idleStreams }
        let held = bench.residentMegabytes() ?? 0

        // Four devices of the bench user; each write is timed until all four heard of it.
        let heard = Heard()
        let devices = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in 0..<4 {
                    group.addTask {
                        _ = try? await LiveBench.read(url, token: token, client: client, onOpen: {}) { seq in
                            heard.add(seq, device: device)
                        }
                    }
                }
            }
        }
        defer { devices.cancel() }
        try await until(seconds: 10, "the four devices' streams are open") { heard.devices == 4 }
        var latencies: [Double] = []
        var ids = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        for trial in 1...trials {
            let (op, item) = (ids.next(now: Date(), using: &random), ids.next(now: Date(), using: &random))
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await HTTPSyncTransport(baseURL: bench.url, token: bench.token, now: { Date() }).sync(
                SyncRequest(
                    device: UUID().uuidString.lowercased(), cursor: nil, limit: 1,
                    ops: [
                        Op(
                            id: op, item: item, kind: .create, baseRev: 0,
                            fields: [.title: FieldChange(from: .null, to: .string("write \(trial)"))])
                    ]))
            try await until(seconds: 10, "write \(trial) heard by all four") { heard.allReached(Int64(trial)) }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let stats = Stats(latencies)
        return [
            "| server memory with \(idleStreams) idle hint streams (before: \(String(format: "%.0f", before)) MB) "
                + "| \(String(format: "%.0f", held)) MB | < 200 MB |",
            "| a write to the hint reaching all 4 of a user's devices, \(idleStreams) other streams open, p50 / p99 "
                + "| \(ms(stats.p50)) / \(ms(stats.p99)) | p99 < 100 ms |",
        ]
    }

    /// A client that keeps thousands of streams to one host open (the shared one queues them);
    /// it lives as long as the process.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 20_000
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Reads one hint stream until cancelled, calling `onFeed` with every sequence number.
    static func read(
        _ base: String, token: String, client: HTTPClient, onOpen: @Sendable () -> Void,
        onFeed: @Sendable (Int64) -> Void
    ) async throws {
        var request = HTTPClientRequest(url: base + SyncProtocol.hintsPath)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(600))
        guard response.status == .ok else { throw BenchFailure("hint stream answered \(response.status.code)") }
        onOpen()
        var parser = HintStreamParser()
        for try await chunk in response.body {
            for signal in try parser.read(chunk.readableBytesView) {
                if case .feed(let seq) = signal { onFeed(seq) }
            }
        }
    }

    // MARK: - Helpers

    /// One device: its store, engine, worker and hint follower.
    final class Device: Sendable {
        let database: AppDatabase
        let engine: SyncEngine
        let worker: SyncWorker
        let follower: HintFollower

        init(server: BenchServer) throws {
            database = try BenchStores.temporary()
            let live = database.environment
            let (url, token) = (server.url, server.token)
            engine = SyncEngine(
                ledger: SyncLedger(storage: database.syncStorage(), now: live.now, newID: live.newID),
                lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: live.now),
                connect: { HTTPSyncTransport(baseURL: url, token: token, timeout: 30, now: { Date() }) })
            let worker = SyncWorker(runner: engine, scheduler: LiveSyncScheduler(now: live.now))
            self.worker = worker
            let ledger = engine.ledger
            follower = HintFollower(
                connect: { SyncRemote(url: url, token: token) }, cursorSeq: { ledger.cursorSeq() },
                onMove: { worker.syncNow() })
            worker.start()
        }

        func stop() {
            follower.stop()
            worker.stop()
        }
    }

    /// Streams opened so far, counted from many tasks.
    final class Tally: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The newest sequence number each device's stream heard.
    final class Heard: Sendable {
        private let newest = Mutex<[Int: Int64]>([:])
        func add(_ seq: Int64, device: Int) { newest.withLock { $0[device] = max($0[device] ?? seq, seq) } }
        var devices: Int { newest.withLock { $0.count } }
        func allReached(_ seq: Int64) -> Bool { newest.withLock { $0.values.allSatisfy { $0 >= seq } } }
    }

    struct Stats {
        let p50: Double
        let p99: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            func at(_ fraction: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
            }
            p50 = at(0.5)
            p99 = at(0.99)
        }
    }

    private func ms(_ value: Double) -> String { String(format: value < 100 ? "%.1f ms" : "%.0f ms", value) }

    /// Waits for `condition`, looking every millisecond, up to a deadline.
    private func until(seconds: Double, _ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw BenchFailure("timed out waiting: \(what)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
