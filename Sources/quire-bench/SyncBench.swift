import ArgumentParser
import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireStore
import QuireSync

/// `quire-bench sync`: the sync engine against the real `quire-server` on loopback.
///
/// Prints a Markdown fragment: first push of many local items, first pull of many items by a
/// new device, an incremental round with one change, and the bytes an op costs on the wire
/// beyond its field values.
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync benchmarks: first push, first pull, incremental round, bytes per op.")

    @Option(help: "The quire-server executable.")
    var server: String

    @Option(help: "Items of the first push.")
    var pushItems = 10_000

    @Option(help: "Items of the first pull.")
    var pullItems = 100_000

    @Option(help: "Store sizes of the first pull's cost curve, comma-separated (empty: no curve).")
    var pullSizes = ""

    @Option(help: "Changes per pulled page (default: the engine's own).")
    var pageSize: Int?

    @Option(help: "Incremental rounds to time.")
    var rounds = 50

    @Option(help: "Size of the attached file the files part moves, in MB (10^6 bytes).")
    var fileMegabytes = 100

    @Option(
        help:
            "Run only these parts (push, pull, typing, files); all when not given. The push part includes the incremental round and bytes per op; files times a large attached file's upload and download, encryption off and on, and typing during its upload."
    )
    var only: [Part] = []

    @Flag(help: "Sync an encrypted account: its key ring is stored first, and every device seals and opens.")
    var encrypted = false

    enum Part: String, ExpressibleByArgument, CaseIterable {
        case push, pull, typing, files
    }

    private func runs(_ part: Part) -> Bool { only.isEmpty || only.contains(part) }

    func run() async throws {
        // As the app sends them, on event loops below the UI: the typing rows measure the app.
        HTTPSyncTransport.sendRequestsBelowTheUI()
        var lines: [String] = [
            "## Sync", "",
            "The sync engine against `quire-server` (SQLite) on loopback; the local store is SQLite.",
            "Requests go out as the app sends them, on network threads below its UI.",
            "Requests of 1 KiB or more travel gzip-compressed (the server says it takes them); bytes",
            "per op are counted on the wire, with the same batch as plain JSON for comparison. Typing",
            "is timed in the app's runtime while a new device pulls into the same store, then with",
            "sync idle, then with no sync but every core kept busy by spinning threads for as long",
            "as the sync took (the control: what any busy machine adds).", "",
        ]
        if encrypted {
            lines += [
                "**Encrypted account**: every value sealed (XChaCha20-Poly1305) and MACed on the devices;",
                "the server stores and sends only sealed values.", "",
            ]
        }
        // The files part has a table of its own.
        if runs(.push) || runs(.pull) || runs(.typing) {
            lines += ["| measure | result | target |", "| --- | --- | --- |"]
        }

        if runs(.push) { lines += try await pushParts() }
        if runs(.pull) || runs(.typing) { lines += try await pullParts() }
        let curveSizes = BenchSizes.parse(pullSizes)
        if !curveSizes.isEmpty { lines += try await pullCurve(sizes: curveSizes) }
        if runs(.files) { lines += try await fileParts() }
        lines.append("")
        print(lines.joined(separator: "\n"))
    }

    /// First push, incremental rounds and bytes per op: one server, one pushing device.
    private func pushParts() async throws -> [String] {
        var lines: [String] = []
        let live = StoreEnvironment.live
        // 1. First sync of many local items to an empty server.
        let pushServer = try await prepared(BenchServer(binary: server))
        defer { pushServer.stop() }
        let pusher = try BenchStores.temporary(environment: live)
        _ = try pusher.importItems(
            (0..<pushItems).map { index in
                ImportEntry(
                    title: "Item \(index)", body: "Line one of item \(index)\nLine two\n",
                    tags: index % 3 == 0 ? ["work"] : [])
            })
        let pushEngine = try engine(for: pusher, server: pushServer)
        progress("first push of \(pushItems) items")
        let pushTime = try await timed { try expect(await pushEngine.runToCompletion()) }
        progress("first push done")
        let pushNetwork = pushEngine.recentRounds.reduce(0) { $0 + $1.networkTime }
        lines.append(
            "| first sync of \(pushItems) local items to an empty server (waiting for the server: \(seconds(pushNetwork))) | \(seconds(pushTime)) | under 2 s |"
        )

        // 2. Incremental rounds with one change each.
        let ids = try pusher.items(limit: rounds).map(\.id)
        var samples: [TimeInterval] = []
        for (index, id) in ids.enumerated() {
            _ = try pusher.update(id, fields: [.title: .string("Edited \(index)")])
            samples.append(try await timed { try expect(await pushEngine.run(.normal)) })
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p95 = samples[min(samples.count - 1, samples.count * 95 / 100)]
        lines.append(
            "| incremental round with one change (median / p95 of \(samples.count)) | \(milliseconds(median)) / \(milliseconds(p95)) | under 20 ms |"
        )

        // 3. Bytes per op beyond the field values: a batch of one-field updates (a typical
        //    edit) as the wire carries it; each further field adds its name and {"from","to"}.
        let batchIDs = try pusher.items(limit: 500).map(\.id)
        for (index, id) in batchIDs.enumerated() {
            _ = try pusher.update(id, fields: [.title: .string("Renamed \(index)")])
        }
        let outbox = try pusher.outbox(state: .pending).map(\.op)
        // The same batch as uncompressed JSON, for comparison (the wire carries it gzip-compressed).
        let meta = try pusher.syncMeta()
        let plain = SyncRequest(
            device: meta.deviceID, cursor: meta.cursor, limit: SyncEngine.Limits().pageSize, ops: outbox
        )
        .compactJSON().count
        let valueBytes = outbox.reduce(0) { sum, op in
            sum + (op.fields ?? [:]).values.reduce(0) { $0 + jsonLength($1.from) + jsonLength($1.to) }
        }
        let before = pushEngine.recentRounds.count
        try expect(await pushEngine.run(.normal))
        let report = pushEngine.recentRounds[before...].reduce(into: (sent: 0, received: 0)) {
            $0.sent += $1.bytesSent
            $0.received += $1.bytesReceived
        }
        let overhead = Double(report.sent - valueBytes) / Double(max(1, outbox.count))
        let plainOverhead = Double(plain - valueBytes) / Double(max(1, outbox.count))
        let total = Double(report.sent) / Double(max(1, outbox.count))
        lines.append(
            "| request bytes per op on the wire beyond the field values (\(outbox.count) one-field updates, gzip; \(Int(total.rounded())) B per op in all) | \(Int(overhead.rounded())) B | under 150 B |"
        )
        lines.append("| the same as uncompressed JSON | \(Int(plainOverhead.rounded())) B | — |")
        lines.append(
            "| answer bytes per op (result and the change coming back) | \(Int((Double(report.received) / Double(max(1, outbox.count))).rounded())) B | — |"
        )
        return lines
    }

    /// First pull by a new device, then typing in the app while another new device pulls.
    private func pullParts() async throws -> [String] {
        var lines: [String] = []
        let live = StoreEnvironment.live

        // 4. First pull of many items by a new device.
        let (pullServer, seeder, seedEngine) = try await seededServer(items: pullItems)
        defer { pullServer.stop() }
        // The page size the app and `quire sync` use, unless told otherwise.
        let pullLimits = self.pullLimits
        if runs(.pull) {
            progress("first pull of \(pullItems) items")
            let pull = try await firstPull(from: pullServer)
            progress("first pull done")
            lines.append(
                "| first pull of \(pull.pulled) items by a new device, pages of \(pullLimits.pageSize) (waiting for the server: \(seconds(pull.network))) | \(seconds(pull.seconds)) | under 2 s at 100k |"
            )
            let puller = pull.store
            let pullDirect = pull.engine

            // Edits of items the device already has: another device retitles 10,000 of them.
            let edited = min(10_000, pullItems)
            let editIDs = seeder.allItems.prefix(edited).map(\.id)
            for (index, id) in editIDs.enumerated() {
                try seeder.update(id, [.title: .string("Edited item \(index)")], opID: live.newID(Date()), now: Date())
            }
            try expect(await seedEngine.runToCompletion())
            progress("pull of \(edited) edits")
            let editTime = try await timed { try expect(await pullDirect.runToCompletion()) }
            let editedTitles = try puller.items(limit: nil).filter { $0.title.hasPrefix("Edited item") }.count
            guard editedTitles == edited else { throw BenchFailure("\(editedTitles) of \(edited) edits arrived") }
            lines.append("| pull of \(edited) edited items the device already has | \(seconds(editTime)) | — |")
        }
        guard runs(.typing) else { return lines }

        // 5. Typing while a large sync writes into the same store: a new device pulls every
        //    item while keys move the selection and page; then the same keys with sync idle.
        let browser = try BenchStores.temporary(environment: live)
        let browserSetup = SyncSetup.engine(
            for: browser, settings: SyncSettings(configPath: "/nonexistent", credentialsPath: "/nonexistent"),
            environment: browser.environment, limits: pullLimits)
        let browserEngine = SyncEngine(
            ledger: browserSetup.ledger, limits: pullLimits, lock: nil, connect: connector(pullServer))
        browserEngine.runsBelowTheUI = true  // as the app's engine runs
        let typing = SyncBenchTyping(store: browser)
        let syncStart = DispatchTime.now().uptimeNanoseconds
        let busy = try await typing.measure(presses: 100) {
            let outcome = await browserEngine.runToCompletion()
            guard outcome == .caughtUp else { throw BenchFailure("a sync round ended with \(outcome)") }
        }
        let syncSeconds = Double(DispatchTime.now().uptimeNanoseconds - syncStart) / 1e9
        // Only the keys pressed while the sync ran count for it: the run goes on to `presses` keys
        // after a short sync, and those keys are idle ones.
        let during = TUIBenchStats(busy.whileWorking)
        let idle = try await typing.measure(presses: busy.whileWorking.count)
        // The control: no sync, but every core kept busy for as long as the sync ran (a pull
        // keeps the client and the server busy at once). What it adds to the idle figures is
        // what any busy machine adds; what the sync adds beyond it is the sync's own doing.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let loaded = try await typing.measure(presses: busy.whileWorking.count) {
            await SyncBenchTyping.keepBusy(threads: cores, seconds: syncSeconds)
        }
        let spun = TUIBenchStats(loaded.whileWorking)
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        lines.append(
            "| keystroke to frame in the app while a new device pulls \(pullItems) items (\(busy.whileWorking.count) keys during the sync), p50 / p99 "
                + "| \(ms(during.median)) / \(ms(during.p99)) | unchanged within noise |")
        lines.append(
            "| the same keys with sync idle, p50 / p99 | \(ms(idle.stats.median)) / \(ms(idle.stats.p99)) | — |")
        lines.append(
            "| the same keys with sync idle and \(cores) threads keeping every core busy for as long as the sync ran, p50 / p99 "
                + "| \(ms(spun.median)) / \(ms(spun.p99)) | — |")
        return lines
    }

    /// The limits of a pulling device: the app's own, with `--page-size` when given.
    var pullLimits: SyncEngine.Limits {
        var limits = SyncEngine.Limits()
        if let pageSize { limits.pageSize = pageSize }
        return limits
    }

    /// A server holding `items` items, pushed by a device whose storage is in memory (so that
    /// seeding a million costs the server's work, not a local store's); the seeding engine can
    /// push more later.
    func seededServer(items: Int) async throws -> (BenchServer, InMemorySyncStorage, SyncEngine) {
        let live = StoreEnvironment.live
        let server = try await prepared(BenchServer(binary: self.server))
        let seeder = InMemorySyncStorage(deviceID: live.newID(Date()), rollsBack: false)
        let seedNow = Date()
        for index in 0..<items {
            let id = live.newID(seedNow)
            seeder.create(
                Item(
                    id: id, title: "Pulled item \(index)", body: "Some text for item \(index)\n",
                    createdAt: UUIDv7Generator.creationTime(ofID: id) ?? seedNow),
                opID: live.newID(seedNow), now: seedNow)
        }
        var seedLimits = SyncEngine.Limits()
        seedLimits.batchSize = 1000
        let seedEngine = SyncEngine(
            ledger: SyncLedger(storage: seeder, now: live.now, newID: live.newID), limits: seedLimits, lock: nil,
            connect: connector(server))
        do {
            try expect(await seedEngine.runToCompletion())
        } catch {
            server.stop()
            throw error
        }
        return (server, seeder, seedEngine)
    }

    /// A new device's first pull of everything on `server` into a new SQLite store: its time,
    /// the time spent waiting for the server, and the live items the store then holds.
    func firstPull(from server: BenchServer) async throws -> (
        seconds: TimeInterval, network: TimeInterval, pulled: Int, store: AppDatabase, engine: SyncEngine
    ) {
        let live = StoreEnvironment.live
        let store = try BenchStores.temporary(environment: live)
        let setup = SyncSetup.engine(
            for: store, settings: SyncSettings(configPath: "/nonexistent", credentialsPath: "/nonexistent"),
            environment: store.environment, limits: pullLimits)
        let engine = SyncEngine(ledger: setup.ledger, limits: pullLimits, lock: nil, connect: connector(server))
        let time = try await timed { try expect(await engine.runToCompletion()) }
        let network = engine.recentRounds.reduce(0) { $0 + $1.networkTime }
        return (time, network, try store.count(matching: .live), store, engine)
    }

    func engine(for database: AppDatabase, server: BenchServer, encrypted: Bool? = nil) throws -> SyncEngine {
        let live = database.environment
        var limits = SyncEngine.Limits()
        limits.stateHashCheckInterval = 3600
        return SyncEngine(
            ledger: SyncLedger(storage: database.syncStorage(), now: live.now, newID: live.newID), limits: limits,
            lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: live.now),
            connect: connector(server, encrypted: encrypted))
    }

    /// The transport factory for a server (its address and token copied out, so the closure
    /// holds only values); sealing as `--encrypted` says unless `encrypted` is given.
    func connector(_ server: BenchServer, encrypted: Bool? = nil) -> @Sendable () -> (any SyncTransport)? {
        let (url, token) = (server.url, server.token)
        let sealer = encrypted ?? self.encrypted ? ItemSealer(keys: Self.benchRing.unlocked.dataKeys) : nil
        return {
            let http = HTTPSyncTransport(baseURL: url, token: token, timeout: 120, now: { Date() })
            return sealer.map { SealingTransport(http, sealer: $0) } ?? http
        }
    }

    /// One key ring for the run, made with Argon2id at its minimum: this bench times sync, and
    /// `quire-bench crypto` times unlocking.
    static let benchRing: NewKeyRing = {
        do {
            return try KeyRing.create(passphrase: "quire-bench", parameters: .minimum)
        } catch {
            fatalError("a key ring with minimum parameters: \(error)")
        }
    }()

    /// The server, with the bench account's key ring stored when the run (or `encrypted`) is.
    func prepared(_ server: BenchServer, encrypted: Bool? = nil) async throws -> BenchServer {
        guard encrypted ?? self.encrypted else { return server }
        let http = HTTPSyncTransport(baseURL: server.url, token: server.token, timeout: 120, now: { Date() })
        _ = try await http.storeKeyRing(KeyRingDocument(version: 0, keyring: Self.benchRing.ring))
        return server
    }

    func expect(_ outcome: SyncMachine.RoundOutcome) throws {
        guard outcome == .caughtUp else { throw BenchFailure("a sync round ended with \(outcome)") }
    }

    func timed(_ body: () async throws -> Void) async throws -> TimeInterval {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A progress line on standard error (the table goes to standard output).
    func progress(_ text: String) {
        FileHandle.standardError.write(Data("sync bench: \(text) (\(Date()))\n".utf8))
    }

    func seconds(_ value: TimeInterval) -> String { String(format: "%.2f s", value) }
    private func milliseconds(_ value: TimeInterval) -> String { String(format: "%.1f ms", value * 1000) }

    private func jsonLength(_ value: FieldValue) -> Int {
        (try? JSONEncoder().encode(value).count) ?? 0
    }
}
