import Crypto
import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// Attached files through the real server on a loopback port (issue 32): byte for byte to
/// another device, resumed after the server dies half-way, stored once, refused once.
@Suite(.serialized) struct AttachmentSyncTests {
    /// A device: a store in a directory of its own (the attachment store lives beside it).
    final class Device: @unchecked Sendable {
        let directory: String
        let store: AppDatabase

        init() throws {
            directory = NSTemporaryDirectory() + "quire-attach-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = try AppDatabase.open(path: directory + "/quire.db")
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// Writes `count` pseudo-random bytes to a file and attaches it to a new item.
        func attachNew(_ name: String, count: Int, seed: UInt64, title: String = "Trip") throws -> AttachedFile {
            var random = SeededRandom(seed: seed)
            var bytes = [UInt8](repeating: 0, count: count)
            for index in stride(from: 0, to: count, by: 8) {
                var word = random.next()
                for offset in 0..<min(8, count - index) {
                    bytes[index + offset] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                }
            }
            let path = directory + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let stored = try store.attachmentStore.add(fileAt: path)
            let file = AttachedFile(name: name, size: stored.size, mediaType: "application/pdf", hash: stored.hash)
            let item = try store.create(NewItem(title: title))
            try store.attach([file], to: item.id)
            return file
        }
    }

    /// The HTTP transport, counting what it sends; it can call `interrupt` after some chunks.
    final class CountingTransport: AttachmentTransport, @unchecked Sendable {
        let base: HTTPSyncTransport
        private let lock = NSLock()
        private(set) var chunkBytesSent = 0
        private(set) var chunksSent = 0
        private(set) var questions = 0
        var interruptAfter: Int?
        var interrupt: (@Sendable () async -> Void)?

        init(_ server: SyncTestServer, token: String) {
            base = HTTPSyncTransport(
                baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
        }

        func missingChunks(_ query: ChunkQuery) async throws(SyncTransportError) -> [String] {
            lock.withLock { questions += 1 }
            return try await base.missingChunks(query)
        }

        func putChunk(_ address: String, bytes: Data) async throws(SyncTransportError) {
            try await base.putChunk(address, bytes: bytes)
            let count = lock.withLock {
                chunkBytesSent += bytes.count
                chunksSent += 1
                return chunksSent
            }
            if count == interruptAfter, let interrupt { await interrupt() }
        }

        func chunk(_ address: String) async throws(SyncTransportError) -> Data { try await base.chunk(address) }

        func commitFile(_ address: String, manifest: FileManifest) async throws(SyncTransportError) {
            try await base.commitFile(address, manifest: manifest)
        }

        func file(_ address: String) async throws(SyncTransportError) -> FileManifest { try await base.file(address) }
    }

    /// A flag one task raises and another reads.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        func set() { lock.withLock { raised = true } }
        var isSet: Bool { lock.withLock { raised } }
    }

    /// Steps until done, at most `limit` times; the outcomes seen.
    func run(_ sync: AttachmentSync, _ transport: any AttachmentTransport, limit: Int = 50) async
        -> [AttachmentSync.Outcome]
    {
        var outcomes: [AttachmentSync.Outcome] = []
        for _ in 0..<limit {
            let outcome = await sync.step(transport: transport, itemWorkWaiting: { false })
            outcomes.append(outcome)
            if outcome == .done { break }
        }
        return outcomes
    }

    func serverCount(_ server: SyncTestServer, _ sql: String) throws -> Int {
        let queue = try DatabaseQueue(path: server.databasePath)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    func fileHash(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test func aTwentyMegabyteFileReachesTheOtherDeviceByteForByteAfterTheServerDiesHalfWay() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let a = try Device()
        let b = try Device()
        let size = 20 << 20
        let file = try a.attachNew("tickets.pdf", count: size, seed: 7)
        #expect(try a.store.attachmentStates(of: [file]) == [.waitingToUpload])

        // The server dies after the tenth chunk of twenty, mid-upload.
        let transport = CountingTransport(server, token: token)
        transport.interruptAfter = 10
        transport.interrupt = { await server.stop() }
        let upload = AttachmentSync(store: a.store, chunksPerStep: 64)
        let first = await upload.step(transport: transport, itemWorkWaiting: { false })
        guard case .failed(.unreachable) = first else {
            Issue.record("the upload should stop with the server gone: \(first)")
            return
        }
        let states = try a.store.attachmentStates(of: [file])
        #expect(states == [.uploading(percent: 50)], "progress kept: \(states)")

        try await server.start()
        let rest = await run(upload, transport)
        #expect(rest.last == .done, "\(rest)")
        #expect(try a.store.attachmentStates(of: [file]) == [.here])
        #expect(
            transport.chunkBytesSent < size * 12 / 10,
            "resumed from the first missing chunk: \(transport.chunkBytesSent) bytes sent for \(size)")
        #expect(transport.chunksSent <= 21, "\(transport.chunksSent) chunks")

        // B receives the reference (as sync would carry it) and downloads the bytes.
        let item = try #require(try a.store.items().first)
        let copy = try b.store.create(NewItem(title: item.title))
        try b.store.attach(item.attachments, to: copy.id)
        #expect(try b.store.attachmentStates(of: [file]) == [.waitingToDownload])
        let download = AttachmentSync(store: b.store, chunksPerStep: 7)
        let steps = await run(download, CountingTransport(server, token: token))
        #expect(steps.count >= 3 && steps.last == .done, "in steps of 7 chunks, resumed each time: \(steps)")
        #expect(fileHash(b.store.attachmentStore.path(of: file.hash)) == file.hash, "byte for byte")
        #expect(try b.store.attachmentStates(of: [file]) == [.here])
    }

    @Test func theSameFileAttachedTwiceIsStoredOnceAndSentOnce() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let a = try Device()
        let b = try Device()
        let file = try a.attachNew("photo.jpg", count: 3 << 20, seed: 9, title: "Sink")
        let again = try a.attachNew("photo.jpg", count: 3 << 20, seed: 9, title: "Plumber")
        #expect(file.hash == again.hash)
        let onB = try b.attachNew("same-photo.jpg", count: 3 << 20, seed: 9, title: "Elsewhere")
        #expect(onB.hash == file.hash)

        let fromA = CountingTransport(server, token: token)
        #expect(await run(AttachmentSync(store: a.store), fromA).last == .done)
        #expect(fromA.chunksSent == 3, "two items, one file: \(fromA.chunksSent) chunks")
        let fromB = CountingTransport(server, token: token)
        #expect(await run(AttachmentSync(store: b.store), fromB).last == .done)
        #expect(fromB.chunksSent == 0, "the server holds it already: one question, no bytes")
        #expect(try serverCount(server, "SELECT count(*) FROM chunks") == 3)
        #expect(try serverCount(server, "SELECT count(*) FROM files") == 1)
    }

    @Test func anOversizedFileIsRefusedOnceAndShownWithTheReason() async throws {
        let server = try SyncTestServer()
        server.maxAttachmentBytes = 1 << 20
        let token = try await server.addUser("ann")
        try await server.start()
        defer { Task { await server.stop() } }
        let a = try Device()
        let file = try a.attachNew("video.mp4", count: (1 << 20) + 1, seed: 3)
        let transport = CountingTransport(server, token: token)
        let sync = AttachmentSync(store: a.store)
        #expect(await sync.step(transport: transport, itemWorkWaiting: { false }) == .done)
        #expect(await sync.step(transport: transport, itemWorkWaiting: { false }) == .done)
        #expect(transport.questions == 1, "refused once, never asked again")
        #expect(transport.chunksSent == 0, "refused up front: no byte sent")
        let states = try a.store.attachmentStates(of: [file])
        guard case .refused(let reason)? = states.first else {
            Issue.record("\(states)")
            return
        }
        #expect(reason.contains("1.0 MB"), "the server's reason, with its limit: \(reason)")
    }

    /// `quire attach` on one device, `quire sync` on both, `quire attachment get` on the other:
    /// the real binary end to end, with the download policy of the config.
    @Test func theCommandLineCarriesAFileToAnotherDeviceAndFetchesOnOpenWhenAsked() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let (a, b, c) = (try Device(), try Device(), try Device())
        func quire(_ arguments: String..., on device: Device) async throws -> String {
            let run = try await QuireBinary.execute(arguments, home: device.directory)
            #expect(run.status == 0, "quire \(arguments.joined(separator: " ")): \(run.stderr)")
            return run.stdout
        }
        for device in [a, b, c] { _ = try await quire("remote", "set", server.baseURL, "--token", token, on: device) }
        let config = c.directory + "/config.toml"
        let remote = (try? String(contentsOfFile: config, encoding: .utf8)) ?? ""
        try (remote + "\n[attachments]\ndownload = \"on-open\"\n").write(
            toFile: config, atomically: true, encoding: .utf8)
        let source = a.directory + "/report.pdf"
        var random = SeededRandom(seed: 11)
        try Data((0..<(5 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }).write(
            to: URL(fileURLWithPath: source))
        let id = try await quire("add", "Quarterly report", on: a).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await quire("attach", id, source, on: a)
        _ = try await quire("sync", on: a)
        _ = try await quire("sync", on: b)
        _ = try await quire("sync", on: c)

        let onB = try #require(
            try JSONSerialization.jsonObject(with: Data(try await quire("attachments", id, "--json", on: b).utf8))
                as? [[String: Any]])
        #expect(onB.first?["state"] as? String == "here", "downloaded by the sync: \(onB)")
        let onC = try #require(
            try JSONSerialization.jsonObject(with: Data(try await quire("attachments", id, "--json", on: c).utf8))
                as? [[String: Any]])
        #expect(onC.first?["state"] as? String == "waiting-to-download", "on-open leaves it: \(onC)")
        for device in [b, c] {
            let saved = device.directory + "/saved.pdf"
            _ = try await quire("attachment", "get", id, "report.pdf", "--output", saved, on: device)
            #expect(fileHash(saved) == fileHash(source), "byte for byte")
        }
        let status = try await quire("attachments", id, on: a)
        #expect(status.contains("here"), "uploaded: \(status)")
    }

    @Test func anUploadStepsAsideAsSoonAsAnItemChangeWaits() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let a = try Device()
        _ = try a.attachNew("big.bin", count: 8 << 20, seed: 5)
        let transport = CountingTransport(server, token: token)
        let sync = AttachmentSync(store: a.store, chunksPerStep: 64)
        let waiting = Flag()
        transport.interruptAfter = 2
        transport.interrupt = { waiting.set() }
        let outcome = await sync.step(transport: transport, itemWorkWaiting: { waiting.isSet })
        #expect(outcome == .moreToDo)
        #expect(transport.chunksSent == 2, "stopped at the next chunk once an edit waited: \(transport.chunksSent)")
    }
}
