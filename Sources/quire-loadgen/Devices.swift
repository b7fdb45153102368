import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireSync

/// `quire-loadgen devices`: N simulated devices, each pushing a batch and pulling in every
/// round, as fast as the server answers, for a fixed time.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Concurrent devices pushing batches and pulling; prints one Markdown table row per level.")

    @OptionGroup var target: Target

    @Option(help: "Comma-separated device counts to run, one after another.")
    var levels = "1,8,32,128"

    @Option(help: "Ops per pushed batch.")
    var batch = 100

    @Option(help: "Seconds to run each level.")
    var seconds = 10.0

    @Option(help: "Most rounds per device per level.")
    var maxRounds = 100_000

    @Option(help: "Devices sharing one user (and so one token and one feed).")
    var devicesPerUser = 2

    @Option(help: "Milliseconds between the starts of one device's rounds (0: as fast as answers come).")
    var intervalMs = 0

    @Option(help: "Label for the first column of the printed rows.")
    var label = "server"

    @Flag(help: "Print only the table rows, without the header.")
    var rowsOnly = false

    @Flag(help: "Encrypted accounts: a key ring is stored for each first; devices seal values and MAC from-values.")
    var encrypted = false

    func validate() throws {
        guard (1...1000).contains(batch) else { throw ValidationError("--batch must be from 1 to 1000") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be from 0 to 600") }
        guard (0...60_000).contains(intervalMs) else { throw ValidationError("--interval-ms must be from 0 to 60000") }
        guard devicesPerUser >= 1 else { throw ValidationError("--devices-per-user must be at least 1") }
        guard !parsedLevels.isEmpty, parsedLevels.allSatisfy({ (1...1024).contains($0) }) else {
            throw ValidationError("--levels must be device counts from 1 to 1024")
        }
    }

    var parsedLevels: [Int] { levels.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func run() async throws {
        let tokens = try String(contentsOfFile: target.tokens, encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        guard !tokens.isEmpty else { throw ValidationError("no tokens in \(target.tokens)") }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1100)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(60))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

        do {
            if encrypted { try await Self.storeKeyRings(url: target.url, tokens: tokens) }
            try await runLevels(tokens: tokens, client: client)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func runLevels(tokens: [String], client: HTTPClient) async throws {
        if !rowsOnly {
            print("| store | devices | applied ops/s | rounds/s | p50 round trip | p99 round trip | errors |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        }
        for level in parsedLevels {
            let result = try await runLevel(devices: level, tokens: tokens, client: client)
            print(
                "| \(label) | \(level) | \(Int(result.opsPerSecond)) | \(String(format: "%.1f", result.roundsPerSecond)) | "
                    + "\(Self.ms(result.p50)) | \(Self.ms(result.p99)) | \(result.errors) |")
        }
    }

    /// One key ring for every simulated account, made with Argon2id at its minimum: the load
    /// is sync, not unlocking.
    static let ring: NewKeyRing = {
        do {
            return try KeyRing.create(passphrase: "quire-loadgen", parameters: .minimum)
        } catch {
            fatalError("a key ring with minimum parameters: \(error)")
        }
    }()

    /// Stores the ring for each account that has none yet (an earlier run may have).
    static func storeKeyRings(url: String, tokens: [String]) async throws {
        for token in Set(tokens) {
            let http = HTTPSyncTransport(baseURL: url, token: token, timeout: 30, now: { Date() })
            guard try await http.keyRing() == nil else { continue }
            _ = try await http.storeKeyRing(KeyRingDocument(version: 0, keyring: ring.ring))
        }
    }

    static func ms(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", value)
    }

    struct LevelResult {
        var opsPerSecond: Double
        var roundsPerSecond: Double
        var p50: Duration
        var p99: Duration
        var errors: Int
    }

    func runLevel(devices: Int, tokens: [String], client: HTTPClient) async throws -> LevelResult {
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let url = target.url + SyncProtocol.syncPath
        let batch = self.batch
        let maxRounds = self.maxRounds
        let perUser = devicesPerUser
        let interval = Duration.milliseconds(intervalMs)
        let sealer = encrypted ? ItemSealer(keys: Self.ring.unlocked.dataKeys) : nil
        let outcomes = try await withThrowingTaskGroup(of: DeviceOutcome.self) { group in
            for index in 0..<devices {
                let token = tokens[(index / perUser) % tokens.count]
                group.addTask {
                    var device = SimulatedDevice(token: token, batch: batch, sealer: sealer)
                    return await device.run(
                        url: url, client: client, until: deadline, maxRounds: maxRounds, interval: interval)
                }
            }
            var all: [DeviceOutcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let latencies = outcomes.flatMap(\.latencies).sorted()
        func percentile(_ p: Double) -> Duration {
            guard !latencies.isEmpty else { return .zero }
            return latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return LevelResult(
            opsPerSecond: Double(outcomes.reduce(0) { $0 + $1.applied }) / seconds,
            roundsPerSecond: Double(latencies.count) / seconds,
            p50: percentile(0.50), p99: percentile(0.99),
            errors: outcomes.reduce(0) { $0 + $1.errors })
    }
}

/// What one device did in one level.
struct DeviceOutcome: Sendable {
    var applied = 0
    var errors = 0
    var latencies: [Duration] = []
}

/// A device: creates items, then edits its own, pushing a batch and pulling in every round.
struct SimulatedDevice {
    let token: String
    let batch: Int
    /// Seals every op, as an encrypted account's devices do; nil for a plain account.
    let sealer: ItemSealer?
    let id = UUID().uuidString.lowercased()
    var cursor: String?
    /// Items this device created, with the revision and title it last saw.
    var mine: [(id: String, rev: Int, title: String)] = []
    var generator = UUIDv7Generator()
    var random = SystemRandomNumberGenerator()

    init(token: String, batch: Int, sealer: ItemSealer? = nil) {
        self.token = token
        self.batch = batch
        self.sealer = sealer
    }

    mutating func nextID() -> String { generator.next(now: Date(), using: &random) }

    /// Half creates, half edits of items it made (against the revision it knows).
    mutating func makeOps() -> [Op] {
        var ops: [Op] = []
        var edited = Set<Int>()
        for _ in 0..<batch {
            if mine.count > batch && Bool.random(using: &random) {
                let index = Int.random(in: 0..<mine.count, using: &random)
                guard edited.insert(index).inserted else { continue }
                let item = mine[index]
                let title = "edit \(nextID().suffix(6))"
                ops.append(
                    Op(
                        id: nextID(), item: item.id, kind: .update, baseRev: item.rev,
                        fields: [.title: FieldChange(from: .string(item.title), to: .string(title))]))
                mine[index] = (item.id, item.rev, title)
            } else {
                let item = nextID()
                let title = "note \(item.suffix(6))"
                ops.append(
                    Op(
                        id: nextID(), item: item, kind: .create, baseRev: 0,
                        fields: [
                            .title: FieldChange(from: .null, to: .string(title)),
                            .body: FieldChange(from: .null, to: .string("Load test body for \(item).\nSecond line.")),
                            .tags: FieldChange(from: .null, to: .strings(["bench"])),
                        ]))
                mine.append((item, 0, title))
            }
        }
        return sealer.map { sealer in ops.map(sealer.seal) } ?? ops
    }

    /// Runs rounds until the deadline; with an interval, each round starts on its own schedule
    /// (the first at a random offset, so devices do not march in step) and a late round starts
    /// at once.
    mutating func run(
        url: String, client: HTTPClient, until deadline: ContinuousClock.Instant, maxRounds: Int, interval: Duration
    ) async -> DeviceOutcome {
        var outcome = DeviceOutcome()
        var rounds = 0
        var exchange = DeviceExchange(client: client, url: url, token: token)
        let intervalMs = Int64(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        var next =
            ContinuousClock.now + .milliseconds(intervalMs > 0 ? Int64.random(in: 0..<intervalMs, using: &random) : 0)
        while ContinuousClock.now < deadline && rounds < maxRounds {
            if intervalMs > 0 {
                if next > ContinuousClock.now { try? await Task.sleep(until: next, clock: .continuous) }
                next += interval
                if ContinuousClock.now >= deadline { break }
            }
            rounds += 1
            let ops = makeOps()
            let started = ContinuousClock.now
            do {
                let (status, received, _) = try await exchange.sync(
                    SyncRequest(device: id, cursor: cursor, limit: 500, ops: ops), timeout: .seconds(60))
                outcome.latencies.append(ContinuousClock.now - started)
                guard status == .ok, let answer = received else {
                    outcome.errors += 1
                    continue
                }
                cursor = answer.cursor
                var revisions: [String: Int] = [:]
                for (op, result) in zip(ops, answer.results) where result.status == .applied {
                    outcome.applied += 1
                    revisions[op.item] = result.rev
                }
                for index in mine.indices { if let rev = revisions[mine[index].id] { mine[index].rev = rev } }
                if mine.count > 5000 { mine.removeFirst(mine.count - 5000) }
            } catch {
                outcome.errors += 1
            }
        }
        return outcome
    }
}
