import Foundation
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireSync

/// What an upload costs the device it runs on (issue 32, typing during a 100 MB upload): each
/// chunk of an encrypted file is sealed once, and the transfer runs at a lower OS priority than
/// the rest of the app, so a key pressed meanwhile gets a core first.
@Suite(.serialized) struct AttachmentTransferCostTests {
    typealias Device = AttachmentSyncTests.Device

    /// A sealer that counts its seals and notes the nice value of the thread each ran on.
    final class RecordingSealer: ChunkSealer, @unchecked Sendable {
        let base: any ChunkSealer
        private let lock = NSLock()
        private var seen: [Int32] = []

        init(_ base: any ChunkSealer) { self.base = base }

        /// The nice value of the thread of each seal, in order.
        var niceness: [Int32] { lock.withLock { seen } }

        var sealsChunks: Bool { base.sealsChunks }
        func carries(_ file: AttachedFile) -> Bool { base.carries(file) }
        func key(for file: AttachedFile, known: [AttachedFile]) -> String? { base.key(for: file, known: known) }
        func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data {
            lock.withLock { seen.append(BackgroundThread.currentNiceness()) }
            return try base.seal(chunk, index: index, isLast: isLast, of: file)
        }
        func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data {
            try base.open(sealed, index: index, isLast: isLast, of: file)
        }
        func address(ofSealed bytes: Data, of file: AttachedFile) throws -> String {
            try base.address(ofSealed: bytes, of: file)
        }
        func fileAddress(of file: AttachedFile) throws -> String { try base.fileAddress(of: file) }
    }

    /// The HTTP transport as the engine sees it, noting the nice value of the thread each item
    /// round and each chunk request starts on; its chunks go through `sealer`.
    final class RecordingTransport: SyncTransport, AttachmentTransport, @unchecked Sendable {
        let base: HTTPSyncTransport
        let sealer: RecordingSealer
        private let lock = NSLock()
        private var rounds: [Int32] = []
        private var chunks: [Int32] = []
        private var roundThreads: Set<String> = []
        private var chunkThreads: Set<String> = []

        init(_ server: SyncTestServer, token: String) {
            base = HTTPSyncTransport(
                baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
            sealer = RecordingSealer(PlaintextChunkSealer())
        }

        var roundNiceness: [Int32] { lock.withLock { rounds } }
        var chunkNiceness: [Int32] { lock.withLock { chunks } }
        /// The names of the threads the item rounds and the chunk requests started on.
        var roundThreadNames: Set<String> { lock.withLock { roundThreads } }
        var chunkThreadNames: Set<String> { lock.withLock { chunkThreads } }

        /// The calling thread's name (Linux `/proc/thread-self/comm`).
        static func threadName() -> String {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        var chunkSealer: any ChunkSealer { sealer }

        func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse> {
            lock.withLock {
                rounds.append(BackgroundThread.currentNiceness())
                roundThreads.insert(Self.threadName())
            }
            return try await base.sync(request)
        }
        func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage> {
            try await base.snapshot(after: after, limit: limit)
        }
        func missingChunks(_ query: ChunkQuery) async throws(SyncTransportError) -> [String] {
            try await base.missingChunks(query)
        }
        func putChunk(_ address: String, bytes: Data) async throws(SyncTransportError) {
            lock.withLock {
                chunks.append(BackgroundThread.currentNiceness())
                chunkThreads.insert(Self.threadName())
            }
            try await base.putChunk(address, bytes: bytes)
        }
        func chunk(_ address: String) async throws(SyncTransportError) -> Data { try await base.chunk(address) }
        func commitFile(_ address: String, manifest: FileManifest) async throws(SyncTransportError) {
            try await base.commitFile(address, manifest: manifest)
        }
        func file(_ address: String) async throws(SyncTransportError) -> FileManifest { try await base.file(address) }
    }

    @Test func anEncryptedFileIsSealedOnceOnItsWayUpAndOpensByteForByteOnTheOtherDevice() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", .encrypted)
        defer { Task { await server.stop() } }
        let keys = try #require(server.keys)
        let a = try Device()
        let b = try Device()
        let file = try a.attachNew("scan.pdf", count: (5 << 20) + 12_345, seed: 11)
        let sealer = RecordingSealer(EncryptingChunkSealer(keys: keys))
        // Two steps of four chunks: the second sends what the first addressed.
        let upload = AttachmentSync(store: a.store, sealer: sealer, chunksPerStep: 4)
        let steps = await AttachmentSyncTests().run(upload, AttachmentSyncTests.CountingTransport(server, token: token))
        #expect(steps == [.moreToDo, .done], "\(steps)")
        #expect(sealer.niceness.count == 6, "six chunks, each sealed once: \(sealer.niceness.count) seals")
        #expect(upload.bytesSent == Int(file.size) + 6 * 40, "the sealed chunks went, 40 bytes more each")
        let temporary = a.store.attachmentStore.directory + "/tmp"
        let left = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        #expect(left.isEmpty, "the sealed copy has no name on disk: \(left)")

        // B holds the keyed reference (as sync would carry it) and opens every chunk.
        let item = try #require(try a.store.items().first)
        #expect(item.attachments.first?.wrappedKey != nil, "keyed on its way up")
        try b.store.attach(item.attachments, to: try b.store.create(NewItem(title: item.title)).id)
        let download = AttachmentSync(store: b.store, sealer: EncryptingChunkSealer(keys: keys))
        let fetched = await AttachmentSyncTests().run(
            download, AttachmentSyncTests.CountingTransport(server, token: token))
        #expect(fetched.last == .done)
        #expect(
            AttachmentSyncTests().fileHash(b.store.attachmentStore.path(of: file.hash)) == file.hash, "byte for byte")
    }

    /// The transfers always run on their lane; the item rounds on a lane of their own in the
    /// app (`runsBelowTheUI`), at the process's priority for `quire sync`.
    @Test(arguments: [false, true])
    func theEnginesTransfersRunOnTheirLaneAndItsItemRoundsWhereTheEngineSays(belowTheUI: Bool) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let device = try Device()
        let file = try device.attachNew("scan.pdf", count: (3 << 20) + 1, seed: 13)
        let transport = RecordingTransport(server, token: token)
        let environment = StoreEnvironment.live
        let engine = SyncEngine(
            ledger: SyncLedger(storage: device.store.syncStorage(), now: environment.now, newID: environment.newID),
            limits: QuireSyncTests.Device.testLimits,
            lock: SyncLock(path: SyncLock.path(forDatabase: device.store.path), now: environment.now),
            connect: { transport })
        engine.attachments = AttachmentSync(store: device.store, chunksPerStep: 2)
        engine.runsBelowTheUI = belowTheUI
        #expect(await engine.runToCompletion() == .caughtUp)
        #expect(try device.store.attachmentStates(of: [file]) == [.here], "the upload completed")

        // The transfer thread's nice value is 19, below the other lanes' 10 (or the process's
        // own when that is lower still).
        let own = BackgroundThread.currentNiceness()
        let lowered = max(own, BackgroundThread.niceness)
        let lowest = max(own, BackgroundThread.transferNiceness)
        #expect(lowered > own, "this test needs a process that is not at nice 10 or more already")
        #expect(lowest > lowered, "the files' bytes below the lanes a key or an item's round waits for")
        #expect(transport.chunkNiceness == Array(repeating: lowest, count: 4), "each chunk sent from there")
        #expect(transport.sealer.niceness == Array(repeating: lowest, count: 8), "read and addressed there too")
        #expect(transport.chunkThreadNames == ["quire.transfer"], "\(transport.chunkThreadNames)")
        #expect(!transport.roundNiceness.isEmpty)
        if belowTheUI {
            #expect(
                transport.roundNiceness.allSatisfy { $0 == lowered } && transport.roundThreadNames == ["quire.sync"],
                "the item rounds on their own lane: \(transport.roundNiceness), \(transport.roundThreadNames)")
        } else {
            #expect(
                transport.roundNiceness.allSatisfy { $0 == own },
                "the item rounds at the process's own priority: \(transport.roundNiceness)")
        }
    }
}
