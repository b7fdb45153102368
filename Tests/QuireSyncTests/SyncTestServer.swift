import Foundation
import Hummingbird
import Logging
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireServer
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// The real sync server on a loopback port, on an SQLite file of its own, for one test.
final class SyncTestServer: @unchecked Sendable {
    /// How long a test device waits for an answer. The server runs in the test process, whose
    /// tasks share the cooperative pool with every other suite's: on a loaded 2-core machine a
    /// request could wait 10 s behind other suites' work and fail as "no answer in time",
    /// though nothing was wrong. No test relies on this timeout firing.
    static let clientTimeout: TimeInterval = asyncWorkDeadline

    let directory: String
    let databasePath: String
    var rateLimit = RateLimit(perSecond: 0, burst: 1)
    /// The largest attached file the server takes (`--max-attachment-mb`).
    var maxAttachmentBytes: Int64 = 100 << 20
    /// How long a write waits for the database's lock before it is answered 503.
    var busyTimeout: TimeInterval = 10
    /// The account's data keys once it is encrypted (`encryptAccount`): every device of the test
    /// then seals and opens through `SealingTransport`, as `quire` does. Nil for a plain account.
    var keys: DataKeys?
    /// Set by `start()`; read after it returns.
    private(set) var port = 0
    private var task: Task<Void, any Error>?

    init() throws {
        directory = NSTemporaryDirectory() + "quire-sync-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databasePath = directory + "/server.db"
    }

    deinit {
        task?.cancel()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    static var logger: Logger {
        var logger = Logger(label: "quire-server-test")
        logger.logLevel = .critical
        return logger
    }

    /// Starts serving; returns once the port is bound. A restart binds the same port again, so
    /// devices find the server where they left it; the first start takes a port the kernel does
    /// not hand out (`RestartablePort`), so that no other test's connection or server can take
    /// it while this one is stopped.
    func start() async throws {
        if port != 0 {
            guard try await serve(on: port) else { throw ChildProcessError("port \(port) is taken: cannot restart") }
            return
        }
        for candidate in RestartablePort.candidates() where try await serve(on: candidate) {
            return
        }
        throw ChildProcessError("no port outside the kernel's range could be bound")
    }

    /// Serves on `port`; false when it cannot be bound (the service then ended at once).
    private func serve(on port: Int) async throws -> Bool {
        var configuration = ServerConfiguration()
        configuration.port = port
        configuration.store = .sqlite(path: databasePath)
        configuration.rateLimit = rateLimit
        configuration.limits.maxAttachmentBytes = maxAttachmentBytes
        configuration.sqliteBusyTimeout = busyTimeout
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration: configuration, logger: Self.logger) { port in
            continuation.yield(port)
        }
        let service = Task {
            defer { continuation.finish() }
            try await app.runService()
        }
        for await bound in ports {
            self.port = bound
            task = service
            return true
        }
        _ = try? await service.value
        return false
    }

    /// Stops serving and waits until the store has let go of the database, so that a backup or
    /// a restore that follows copies or replaces files no connection holds: the store closes
    /// when its last task lets go of it, which can be a moment after the service has ended, and
    /// files replaced under an open connection made the next open fail with "disk I/O error".
    func stop() async {
        task?.cancel()
        _ = try? await task?.value
        task = nil
        if !(await suspendUntil(timeout: asyncWorkDeadline) { self.databaseIsClosed() }) {
            Issue.record("the stopped server's store still holds \(databasePath)")
        }
    }

    /// Whether no store holds the database: every process or store that opens it holds its lock
    /// file shared (`quire-server restore` takes it exclusively, as this does for a moment).
    private func databaseIsClosed() -> Bool {
        let descriptor = open(databasePath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        // Let go explicitly: a process another test forks at this moment shares the descriptor
        // until it execs, and a close alone would leave the lock held through that copy, so the
        // store opened next (shared) was refused as if a restore were running.
        flock(descriptor, LOCK_UN)
        return true
    }

    /// Runs an operator command on the server's store.
    func admin<T: Sendable>(_ body: @Sendable (ServerAdmin) async throws -> T) async throws -> T {
        try await ServerAdmin.withStore(.sqlite(path: databasePath), logger: Self.logger, body)
    }

    /// A started server with one user, and that user's token.
    static func running(user: String = "ann", busyTimeout: TimeInterval = 10) async throws -> (SyncTestServer, String) {
        let server = try SyncTestServer()
        server.busyTimeout = busyTimeout
        let token = try await server.addUser(user)
        try await server.start()
        return (server, token)
    }

    func addUser(_ name: String) async throws -> String {
        try await admin { try await $0.addUser(name: name) }
    }

    /// Copies the database files aside (while stopped), as a backup.
    func backUp(to name: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: databasePath + suffix) {
            try FileManager.default.copyItem(atPath: databasePath + suffix, toPath: directory + "/\(name)" + suffix)
        }
    }

    /// Puts a backup back in place of the database (while stopped).
    func restore(from name: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: databasePath + suffix)
            if FileManager.default.fileExists(atPath: directory + "/\(name)" + suffix) {
                try FileManager.default.copyItem(atPath: directory + "/\(name)" + suffix, toPath: databasePath + suffix)
            }
        }
    }
}

/// Makes real UUIDv7 ids; thread-safe.
final class LiveIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var generator = UUIDv7Generator()

    func next(_ now: Date = Date()) -> String {
        lock.withLock {
            var random = SystemRandomNumberGenerator()
            return generator.next(now: now, using: &random)
        }
    }
}

/// A transport that can be told to fail in the ways networks do.
final class FaultyTransport: SyncTransport, @unchecked Sendable {
    enum Fault { case dropAnswer, unreachable }
    let base: any SyncTransport
    private let lock = NSLock()
    private var faults: [Fault] = []
    private var snapshotPages = 0

    init(base: any SyncTransport) {
        self.base = base
    }

    /// Queues faults for the next requests, one each.
    func fail(_ faults: Fault...) {
        lock.withLock { self.faults += faults }
    }

    private func nextFault() -> Fault? {
        lock.withLock { faults.isEmpty ? nil : faults.removeFirst() }
    }

    func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
        switch nextFault() {
        case .unreachable: throw .unreachable("connection refused")
        case .dropAnswer:
            // The server does the work; the answer is lost on the way back.
            _ = try await base.sync(request)
            throw .unreachable("the connection was closed")
        case nil: return try await base.sync(request)
        }
    }

    func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
        lock.withLock { snapshotPages += 1 }
        return try await base.snapshot(after: after, limit: limit)
    }

    /// How many snapshot pages were asked for: a resync reads at least one.
    var snapshotRequests: Int { lock.withLock { snapshotPages } }
}

/// One device: a local store in memory and the real sync engine talking HTTP to the server.
final class Device: @unchecked Sendable {
    let name: String
    let storage: InMemorySyncStorage
    let engine: SyncEngine
    let transport: FaultyTransport
    let ids: LiveIDs

    init(
        _ name: String, server: SyncTestServer, token: String, limits: SyncEngine.Limits = Device.testLimits,
        baseURL: String? = nil
    ) {
        self.name = name
        let ids = LiveIDs()
        self.ids = ids
        storage = InMemorySyncStorage(deviceID: ids.next())
        let transport = FaultyTransport(
            base: HTTPSyncTransport(
                baseURL: baseURL ?? server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() }
            ))
        self.transport = transport
        let ledger = SyncLedger(storage: storage, now: { Date() }, newID: { ids.next($0) })
        let connection = Device.sealing(transport, keys: server.keys)
        engine = SyncEngine(ledger: ledger, limits: limits, lock: nil, connect: { connection })
    }

    /// The transport as `quire` builds it (`SyncSetup`): sealing and opening every item when the
    /// account is encrypted, an item that does not open named in the exchange for the ledger.
    static func sealing(_ network: any SyncTransport, keys: DataKeys?) -> any SyncTransport {
        guard let keys else { return network }
        return SealingTransport(network, sealer: ItemSealer(keys: keys))
    }

    /// The items this device could not open (none, unless a test tampers with the server).
    var unreadable: [String] {
        storage.events.filter { $0.kind == .unreadable }.map { "\($0.itemID ?? "?"): \($0.message)" }
    }

    static var testLimits: SyncEngine.Limits {
        var limits = SyncEngine.Limits()
        limits.stateHashCheckInterval = 0
        return limits
    }

    @discardableResult
    func sync() async -> SyncMachine.RoundOutcome {
        await engine.runToCompletion()
    }

    /// A new item, created at the time its id names, as `AppDatabase.create` makes one.
    @discardableResult
    func create(_ title: String, body: String = "", kind: ItemKind = .note, tags: [String] = []) -> String {
        let now = Date()
        let id = ids.next(now)
        let created = UUIDv7Generator.creationTime(ofID: id) ?? now
        storage.create(
            Item(id: id, kind: kind, title: title, body: body, tags: tags, createdAt: created), opID: ids.next(now),
            now: now)
        return id
    }

    func update(_ id: String, _ values: [Field: FieldValue]) throws {
        try storage.update(id, values, opID: ids.next(), now: Date())
    }

    func delete(_ id: String) throws {
        try storage.delete(id, opID: ids.next(), now: Date())
    }

    func item(_ id: String) -> Item? { storage.item(id) }

    /// What every device must agree on after syncing: the live items' fields and revisions.
    var snapshot: [String: String] {
        Dictionary(
            uniqueKeysWithValues: storage.allItems.filter { !$0.deleted }.map { item in
                (item.id, "\(item.fieldValues.sorted { $0.key < $1.key }) rev=\(item.rev)")
            })
    }

    /// The tombstones this device holds, by what devices share of one: the server keeps no
    /// content of a deleted item (SPEC), so a device that had the item keeps its own text, and
    /// one that never had it holds nothing of it; where two devices hold one, they agree on its
    /// revision, version and time.
    var tombstones: [String: String] {
        Dictionary(
            uniqueKeysWithValues: storage.allItems.filter(\.deleted).map { item in
                (
                    item.id,
                    "rev=\(item.rev) version=\(item.serverVersion.map { "\($0)" } ?? "none") at=\(item.updatedAt)"
                )
            })
    }

    /// Whether the two devices hold the same live items and agree on every tombstone both hold.
    func holdsTheSameCopies(as other: Device) -> Bool {
        snapshot == other.snapshot
            && tombstones.allSatisfy { id, facts in other.tombstones[id].map { $0 == facts } ?? true }
    }
}

/// The test server starts again where devices left it, on a port no other test can take
/// meanwhile: one outside the range the kernel hands out.
@Suite struct SyncTestServerPortTests {
    @Test func aStoppedServerStartsAgainOnItsPortOutsideTheKernelsRange() async throws {
        let (server, _) = try await SyncTestServer.running()
        let port = server.port
        #expect(!RestartablePort.handedOut.contains(port), "\(port) is in \(RestartablePort.handedOut)")
        await server.stop()
        try await server.start()
        #expect(server.port == port)
        await server.stop()
    }
}
