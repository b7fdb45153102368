import Foundation
import GRDB
import HTTPTypes
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireStore

@testable import QuireServer
@testable import QuireSync

/// The whole sync system in one process, driven by one seed: the real server logic (its store
/// on an SQLite file and its push planner, answers written and read as on the wire), devices
/// with the real local store and sync engine on SQLite files, and a network that loses,
/// duplicates and fails exchanges when the seed says so.
///
/// Everything runs one step at a time on the test's task, so a seed replays the same run.
final class SimulatedSystem: @unchecked Sendable {
    /// The faults the network and the machines suffer, with their rates per step or exchange.
    ///
    /// The rates are aimed at a server restore: backups and restores are frequent, answers are
    /// lost far more often between a backup and the restore that follows it (so another device
    /// pulls a version whose answer its author never heard) and just after a restore, and the
    /// first push of one device after a restore fails once, so the others re-send first.
    struct Faults: Sendable {
        var lostRequest = 0.03
        var lostAnswer = 0.03
        /// The rate of lost answers between a backup and the next restore, and for a few steps
        /// after a restore.
        var lostAnswerNearRestore = 0.2
        var duplicated = 0.03
        var serverError = 0.02
        var deviceCrash = 0.01
        var serverRestart = 0.01
        var backup = 0.06
        var restore = 0.06
        /// The chance that, after a restore, one device's next push is answered 503 once.
        var pushFailsAfterRestore = 0.7
        var tokenRevoked = 0.005
        var offline = 0.02

        static let none = Faults(
            lostRequest: 0, lostAnswer: 0, lostAnswerNearRestore: 0, duplicated: 0, serverError: 0, deviceCrash: 0,
            serverRestart: 0, backup: 0, restore: 0, pushFailsAfterRestore: 0, tokenRevoked: 0, offline: 0)
    }

    /// Where the run stands relative to a restore, for the rate and the name of a lost answer.
    enum RestoreWindow: Sendable {
        /// No backup since the last restore.
        case calm
        /// A backup was taken since the last restore: a change acknowledged now can be lost.
        case backedUp
        /// A restore happened this many steps ago (or fewer).
        case restored(steps: Int)
    }

    /// What happened during a run, for the totals.
    struct Tally: Sendable {
        var ops = 0
        var faults: [String: Int] = [:]
        var spuriousConflicts = 0
        /// Ops the server applied and answered.
        var acknowledged = 0
        /// Changes the final check compared with the server and every device.
        var checked = 0

        mutating func add(_ other: Tally) {
            ops += other.ops
            faults.merge(other.faults, uniquingKeysWith: +)
            spuriousConflicts += other.spuriousConflicts
            acknowledged += other.acknowledged
            checked += other.checked
        }

        mutating func fault(_ kind: String) {
            faults[kind, default: 0] += 1
            if SimulationRun.tracing { print("fault: \(kind)") }
        }
    }

    let directory: String
    var random: SeededRandom
    var faults: Faults
    var tally = Tally()
    var window = RestoreWindow.calm
    /// The simulated time, moved on by every step.
    private(set) var now = Date(timeIntervalSince1970: 1_800_000_000)

    // The server.
    private var store: SQLiteStore?
    /// The account's keys when this run syncs an encrypted account (odd seeds): every device
    /// seals and opens through `SealingTransport`, as the real client does, and the server
    /// keeps only sealed values. Nil for a plain account (even seeds).
    let keys: DataKeys?
    private var serverPath: String { directory + "/server.db" }
    private let user = UserID(1)
    private var backups: [String] = []

    // The devices.
    var devices: [Device] = []

    final class Device {
        let name: String
        let path: String
        let seed: UInt64
        var database: AppDatabase
        var engine: SyncEngine!
        var online = true
        var signedOut = false
        /// The device's next push is answered 503 while its pulls go through (the server's
        /// database busy with a write): after a restore, its re-send then goes after others'.
        var pushFailsOnce = false
        /// The newest sync event already traced (`QUIRE_SIM_TRACE`).
        var tracedEvents: Int64 = 0

        init(name: String, path: String, seed: UInt64) throws {
            self.name = name
            self.path = path
            self.seed = seed
            database = try AppDatabase.open(
                path: path, environment: .deterministic(step: 0.001, seed: seed), connections: .single)
        }
    }

    init(seed: UInt64, devices count: Int, faults: Faults) async throws {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        directory = base + "quire-sim-\(seed)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        random = SeededRandom(seed: seed)
        self.faults = faults
        // The keys come from the system's generator, not the run's: the ciphertexts differ
        // from run to run, and nothing the simulation decides may depend on them.
        let encrypted = seed % 2 == 1
        let ring = encrypted ? try KeyRing.create(passphrase: "simulation", parameters: .minimum) : nil
        keys = ring?.unlocked.dataKeys
        try await openServer()
        try await store!.addUser(name: "sim", tokenHash: "sim", now: now)
        if let ring {
            let write = KeyRingWrite(
                json: String(decoding: ring.ring.encoded(), as: UTF8.self), currentKey: ring.ring.currentKey)
            _ = try await store!.storeKeyRing(user: user, ring: write, expected: 0)
        }
        for index in 0..<count {
            let device = try Device(
                name: "device\(index)", path: directory + "/device\(index).db", seed: seed &* 31 &+ UInt64(index))
            devices.append(device)
            attachEngine(device)
        }
    }

    deinit {
        for device in devices { try? device.database.close() }
        store = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: - Randomness

    func chance(_ rate: Double) -> Bool { rate > 0 && Double(random.next() % 1_000_000) / 1_000_000 < rate }
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(max(1, count))) }

    // MARK: - Server

    private func openServer() async throws {
        let path = serverPath
        let store = try await SimulatedSystem.retryingLock { try SQLiteStore(path: path) }
        try await store.prepare()
        self.store = store
    }

    /// Runs `body`, trying again for up to a second while the database's lock file is held. Its
    /// descriptor is close-on-exec, but a child process that other tests start at that very
    /// moment holds it until its exec.
    static func retryingLock<T>(_ body: () throws -> T) async throws -> T {
        var attempts = 0
        while true {
            do {
                return try body()
            } catch  where attempts < 100 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// A restart: the process goes, the file stays.
    func restartServer() async throws {
        store = nil
        try await openServer()
        tally.fault("server restart")
    }

    /// A consistent copy while it serves (`quire-server backup`).
    func backUpServer() throws {
        let path = directory + "/backup-\(backups.count).db"
        _ = try SQLiteBackup.backup(database: serverPath, to: path)
        backups.append(path)
        window = .backedUp
        tally.fault("backup")
    }

    /// `quire-server restore` of any earlier backup: installs it and renews the epoch.
    func restoreServer() async throws {
        guard !backups.isEmpty else { return }
        // Mostly the newest backup: the changes acknowledged since it are the ones to put back.
        let backup = chance(0.7) ? backups[backups.count - 1] : backups[pick(backups.count)]
        store = nil
        let (path, time) = (serverPath, now)
        _ = try await SimulatedSystem.retryingLock { try SQLiteBackup.restore(backup: backup, into: path, now: time) }
        try await openServer()
        window = .restored(steps: 0)
        tally.fault("restore")
    }

    /// The server's items as it would send them: every item and tombstone, as wire items, opened
    /// when the account is encrypted (an item that does not open fails the run).
    func serverItems() async throws -> [String: ChangeItem] {
        var items: [String: ChangeItem] = [:]
        var after: String?
        repeat {
            let page = try await store!.snapshot(user: user, after: after, limit: 500, maxBytes: 64 << 20)
            for doc in page.docs {
                let item = try JSONDecoder().decode(ChangeItem.self, from: Data(doc.utf8))
                if let leak = contentLeak(in: item, encrypted: keys != nil) { throw SimulationFailure(leak) }
                items[item.id] = try keys.map { try ItemSealer(keys: $0).open(item) } ?? item
            }
            after = page.more ? page.lastID : nil
        } while after != nil
        return items
    }

    /// One request through the server's logic, as `POST /v1/sync` runs it.
    fileprivate func serve(_ bytes: [UInt8]) async throws(SyncTransportError) -> [UInt8] {
        guard let request = bytes.withUnsafeBufferPointer(SyncRequest.readCompact) else {
            throw .status(400, error: ErrorBody(.badRequest, "unreadable"), retryAfter: nil)
        }
        var cursor: FeedCursor?
        if let text = request.cursor {
            guard let parsed = FeedCursor(text) else {
                throw .status(400, error: ErrorBody(.badRequest, "bad cursor"), retryAfter: nil)
            }
            cursor = parsed
        }
        do {
            var results: [OpResult] = []
            if !request.ops.isEmpty {
                let planner = PushPlanner(now: now, maxItemBytes: Validation.maxItemBytes)
                results = try await store!.push(
                    user: user, device: request.device, ops: request.ops, cursor: cursor, planner: planner
                ).results
            }
            let page = try await store!.pull(
                user: user, after: cursor?.seq ?? 0, excluding: request.device, limit: request.limit ?? 500,
                maxBytes: 8 << 20)
            if let cursor, let reason = cursor.resyncReason(head: page.head) { throw ResyncRequired(reason: reason) }
            let next = FeedCursor(
                seq: page.more ? (page.lastSeq ?? page.head.seq) : page.head.seq, epoch: page.head.epoch)
            return SyncResponse.compactJSON(
                results: results, changeDocuments: page.docs, cursor: next.description, more: page.more,
                epoch: page.head.epoch, stateHash: page.head.stateHash,
                keyring: page.head.keyring > 0 ? page.head.keyring : nil)
        } catch let resync as ResyncRequired {
            throw .status(410, error: ErrorBody(.resyncRequired, resync.reason), retryAfter: nil)
        } catch let refusal as APIError {
            throw .status(Int(refusal.status.code), error: refusal.body, retryAfter: nil)
        } catch {
            throw .status(503, error: ErrorBody(.internal, "\(error)"), retryAfter: nil)
        }
    }

    fileprivate func serveSnapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SnapshotPage {
        do {
            let read = try await store!.snapshot(user: user, after: after, limit: limit, maxBytes: 8 << 20)
            let items = try read.docs.map { try JSONDecoder().decode(ChangeItem.self, from: Data($0.utf8)) }
            return SnapshotPage(
                items: items, next: read.more ? read.lastID : nil,
                cursor: FeedCursor(seq: read.head.seq, epoch: read.head.epoch).description, lineage: read.lineage,
                keyring: read.head.keyring > 0 ? read.head.keyring : nil)
        } catch {
            throw .status(503, error: ErrorBody(.internal, "\(error)"), retryAfter: nil)
        }
    }

    // MARK: - Devices

    private func attachEngine(_ device: Device) {
        let environment = device.database.environment
        let network = SimulatedNetwork(system: self, device: device)
        let transport: any SyncTransport =
            keys.map { SealingTransport(network, sealer: ItemSealer(keys: $0)) } ?? network
        var limits = SyncEngine.Limits()
        limits.stateHashCheckInterval = 0
        limits.batchSize = 7
        limits.pageSize = 5
        device.engine = SyncEngine(
            ledger: SyncLedger(
                storage: device.database.syncStorage(), now: environment.now, newID: environment.newID),
            limits: limits, lock: nil, connect: { transport })
    }

    /// The device's process dies and starts again: the database file stays.
    func crash(_ device: Device) throws {
        device.database = try AppDatabase.open(
            path: device.path, environment: .deterministic(start: now, step: 0.001, seed: device.seed &+ 7),
            connections: .single)
        attachEngine(device)
        tally.fault("device crash")
    }

    func tick() {
        now = now.addingTimeInterval(1)
        if case .restored(let steps) = window { window = steps < 6 ? .restored(steps: steps + 1) : .calm }
    }

    /// Whether this answer is lost, and the fault's name by where the run stands. The higher
    /// rate near a restore is for answers to pushes: an applied change its author never heard of.
    func losesAnswer(pushing: Bool) -> String? {
        switch window {
        case _ where !pushing, .calm: return chance(faults.lostAnswer) ? "lost answer" : nil
        case .backedUp: return chance(faults.lostAnswerNearRestore) ? "lost answer before restore" : nil
        case .restored: return chance(faults.lostAnswerNearRestore) ? "lost answer after restore" : nil
        }
    }
}

/// The network between one device and the simulated server: answers go through the wire
/// format, and, as the seed says, requests are lost, answers are lost after the server
/// applied them, requests arrive twice, the server fails, or the device is offline.
struct SimulatedNetwork: SyncTransport, @unchecked Sendable {
    /// Unowned: the system owns its devices, each device its engine and the engine this
    /// network; strong references back would keep every run's files and descriptors open
    /// until the process ends (more than a thousand seeds then run out of descriptors).
    unowned let system: SimulatedSystem
    unowned let device: SimulatedSystem.Device

    func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
        let bytes = request.compactJSON()
        try check()
        let faults = system.faults
        if system.chance(faults.lostRequest) {
            system.tally.fault("lost request")
            throw .unreachable("the request was lost")
        }
        if device.pushFailsOnce, !request.ops.isEmpty {
            device.pushFailsOnce = false
            system.tally.fault("push failed once")
            throw .status(503, error: ErrorBody(.internal, "database is locked"), retryAfter: nil)
        }
        if system.chance(faults.serverError) {
            system.tally.fault("server error")
            throw .status(503, error: ErrorBody(.internal, "simulated failure"), retryAfter: nil)
        }
        var answer = try await system.serve(bytes)
        if system.chance(faults.duplicated) {
            system.tally.fault("duplicated request")
            answer = try await system.serve(bytes)
        }
        if let lost = system.losesAnswer(pushing: !request.ops.isEmpty) {
            system.tally.fault(lost)
            throw .unreachable("the answer was lost")
        }
        guard let response = answer.withUnsafeBufferPointer(SyncResponse.readCompact) else {
            throw .invalidAnswer("unreadable answer")
        }
        system.tally.acknowledged += response.results.count(where: { $0.status == .applied })
        if SimulationRun.tracing {
            for (op, result) in zip(request.ops, response.results) {
                let fields = (op.fields ?? [:]).keys.map(\.rawValue).sorted().joined(separator: ",")
                let base = op.baseVersion.map { String(describing: $0) } ?? "-"
                let item = String(op.item.suffix(6))
                let rev: Int = result.rev ?? -1
                let status = String(describing: result.status)
                let line = "op \(item) \(op.kind) [\(fields)] base \(op.baseRev) \(base) → \(status) \(rev)"
                print("sim:      \(line)")
            }
        }
        return SyncExchange(value: response, bytesSent: bytes.count, bytesReceived: answer.count)
    }

    func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
        try check()
        if system.chance(system.faults.lostRequest) {
            system.tally.fault("lost request")
            throw .unreachable("the request was lost")
        }
        return SyncExchange(
            value: try await system.serveSnapshot(after: after, limit: limit), bytesSent: 0, bytesReceived: 0)
    }

    private func check() throws(SyncTransportError) {
        if !device.online { throw .unreachable("offline") }
        if device.signedOut { throw .status(401, error: ErrorBody(.unauthorized, "revoked"), retryAfter: nil) }
    }
}

/// A broken promise the simulation found outside the reference model's checks.
struct SimulationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
