import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol
import QuireStore
import Synchronization

/// Moves attached files' bytes between this device and the server, in chunks of about 1 MiB,
/// behind the item changes (SPEC "Notes, tasks, links and attachments").
///
/// An upload asks which chunks the server lacks, sends only those, then commits the file's
/// manifest: an upload cut short (the server gone, the app closed) resumes from the first
/// chunk still missing, and a file the server holds already (attached twice, or by another
/// device) costs one question. A download reads the manifest, then each chunk, checking its
/// address, into a partial file it resumes from; the whole file is checked against its hash
/// before it joins the store. A file the server refuses (413) is marked with the reason and
/// never sent again.
///
/// An encrypted account's files go through its transport's `EncryptingChunkSealer`: a file
/// whose copy on the server does not open (altered, reordered, swapped or cut short) is marked
/// on the attachment with the reason, nothing of it joins the store, and it is not fetched again.
///
/// The engine runs one `step` after each round that caught up; a step moves a bounded number
/// of chunks and stops early as soon as an item change waits, so a large upload never holds
/// back a title edit by more than one chunk.
public final class AttachmentSync: Sendable {
    public let store: AppDatabase
    public let sealer: any ChunkSealer
    /// Read at every step, so a changed config takes effect without a restart.
    public let policy: @Sendable () -> AttachmentDownloadPolicy
    /// Chunks one step moves at most before handing back to the item sync.
    public let chunksPerStep: Int
    /// Chunk addresses of files this process has read, by file hash and key: a resumed upload
    /// does not read and hash the whole file again at every step. An encrypted file's entry
    /// keeps its sealed chunks until it is sent, so each is sealed once.
    private let addressCache = Mutex<[String: AddressedFile]>([:])
    private let sent = Atomic<Int>(0)
    /// Each chunk a download brings, and its end (the app's item view follows them).
    public let progress = TransferProgress()

    public init(
        store: AppDatabase, sealer: any ChunkSealer = PlaintextChunkSealer(), chunksPerStep: Int = 16,
        policy: @escaping @Sendable () -> AttachmentDownloadPolicy = { .always }
    ) {
        self.store = store
        self.sealer = sealer
        self.chunksPerStep = chunksPerStep
        self.policy = policy
    }

    /// Bytes of chunks this instance has sent, for tests and benchmarks.
    public var bytesSent: Int { sent.load(ordering: .relaxed) }

    /// How a step ended.
    public enum Outcome: Hashable, Sendable {
        /// Nothing left to move.
        case done
        /// Nothing left to move now, but a file an item here refers to is not on the server yet:
        /// the device that attached it is still sending it.
        case awaitingUploads
        /// The step stopped with work left (its budget, or an item change waiting).
        case moreToDo
        case failed(SyncTransportError)
        case localFailure(String)
    }

    /// Moves up to `chunksPerStep` chunks: uploads first (what only this device has), then
    /// downloads when the policy says so. `itemWorkWaiting` is asked before every chunk.
    /// `sealer` is the transport's (`SyncTransport.chunkSealer`), this instance's when nil.
    public func step(
        transport: any AttachmentTransport, sealer: (any ChunkSealer)? = nil, itemWorkWaiting: @Sendable () -> Bool
    ) async -> Outcome {
        let sealer = sealer ?? self.sealer
        var budget = chunksPerStep
        do {
            let local = store.attachmentStore
            var references = try store.liveAttachmentReferences()
            if try keyUnkeyed(references.map(\.file), sealer: sealer) {
                references = try store.liveAttachmentReferences()
            }
            let transfers = try store.attachmentTransfers()
            forgetAddresses(except: references.map(\.file))
            for reference in references where local.contains(reference.file.hash) && sealer.carries(reference.file) {
                switch transfers[reference.file.hash] {
                case .uploaded?, .refused?: continue
                case .uploading?, nil: break
                }
                guard
                    try await upload(
                        reference.file, claiming: reference.items, transport: transport, sealer: sealer,
                        budget: &budget, itemWorkWaiting: itemWorkWaiting)
                else { return .moreToDo }
            }
            let claims = try store.attachmentClaims()
            var resend = false
            for reference in references where sealer.carries(reference.file) {
                let hash = reference.file.hash
                if case .refused? = transfers[hash] { continue }
                // Uploaded just now (with its claims), or on its way: its upload claims it.
                if local.contains(hash), transfers[hash] != .uploaded { continue }
                let address = try sealer.fileAddress(of: reference.file)
                let claimed = reference.items.allSatisfy {
                    claims.contains(AttachmentClaim(item: $0, hash: hash, address: address))
                }
                if claimed { continue }
                guard budget > 0, !itemWorkWaiting() else { return .moreToDo }
                budget -= 1
                if try await !claim(reference, at: address, transport: transport) { resend = true }
            }
            // A file the server turned out to lack is sent by the next step.
            guard policy() == .always else { return resend ? .moreToDo : .done }
            var awaited = false
            for reference in references where !local.contains(reference.file.hash) && sealer.carries(reference.file) {
                if case .refused? = transfers[reference.file.hash] { continue }
                guard
                    try await download(
                        reference.file, transport: transport, sealer: sealer, budget: &budget,
                        itemWorkWaiting: itemWorkWaiting, awaited: &awaited)
                else { return .moreToDo }
            }
            return resend ? .moreToDo : awaited ? .awaitingUploads : .done
        } catch let error as SyncTransportError {
            return .failed(error)
        } catch {
            return .localFailure(String(describing: error))
        }
    }

    /// Keys the files here that this sealer does not carry as they are (an encrypted account's
    /// files attached before its keys were on this device): the device that holds the bytes
    /// keys them, and uploads them sealed once the edit is sent. True when any changed.
    private func keyUnkeyed(_ files: [AttachedFile], sealer: any ChunkSealer) throws -> Bool {
        var changed = false
        for file in files where !sealer.carries(file) && store.attachmentStore.contains(file.hash) {
            guard let key = sealer.key(for: file, known: files) else { continue }
            guard try store.keyAttachments(of: file.hash, wrappedKey: key) > 0 else { continue }
            // Sent before as plain bytes, which the server dropped when the account was
            // encrypted: the keyed file is sent again, from its first chunk.
            try store.recordTransfer(.uploading(sentBytes: 0), of: file.hash)
            changed = true
        }
        return changed
    }

    // MARK: - Upload

    /// Uploads what the server lacks of `file`; true when the file is done (committed or
    /// refused), false when the budget ran out or item work waits.
    func upload(
        _ file: AttachedFile, claiming items: [String], transport: any AttachmentTransport, sealer: any ChunkSealer,
        budget: inout Int, itemWorkWaiting: @Sendable () -> Bool
    ) async throws -> Bool {
        let chunkSize = AttachmentProtocol.chunkSize
        let count = Self.chunkCount(size: file.size)
        let addressed: AddressedFile
        do {
            addressed = try addresses(of: file, count: count, sealer: sealer)
        } catch let error as FileCipherError {
            // Its key does not open here: sending it would make a copy no device can read.
            try store.recordTransfer(.refused(reason: error.description), of: file.hash)
            return true
        }
        let chunkAddresses = addressed.chunks
        let missing: Set<String>
        do {
            missing = Set(try await transport.missingChunks(ChunkQuery(size: file.size, chunks: chunkAddresses)))
        } catch {
            if case .status(413, let body, _) = error {
                forgetAddresses(of: file)
                try store.recordTransfer(
                    .refused(reason: body?.message ?? "the server refused the file as too large"), of: file.hash)
                return true
            }
            // A server without attachment endpoints (an older one): the file waits here, and
            // the items sync on.
            if case .status(404, _, _) = error {
                addressCache.withLock { $0[Self.cacheKey(file)] = AddressedFile(chunks: chunkAddresses, sealed: nil) }
                return true
            }
            throw error
        }
        var remaining = missing
        for index in 0..<count where remaining.contains(chunkAddresses[index]) {
            guard budget > 0, !itemWorkWaiting() else { return false }
            let sealed =
                try addressed.sealed?.chunk(index) ?? sealedChunk(index, count: count, of: file, sealer: sealer)
            try await transport.putChunk(chunkAddresses[index], bytes: sealed)
            sent.add(sealed.count, ordering: .relaxed)
            budget -= 1
            remaining.remove(chunkAddresses[index])
            let confirmed = max(0, file.size - Int64(remaining.count) * Int64(chunkSize))
            try store.recordTransfer(.uploading(sentBytes: confirmed), of: file.hash)
        }
        try await commit(
            FileManifest(size: file.size, chunks: chunkAddresses), of: file.hash, at: sealer.fileAddress(of: file),
            claiming: items, transport: transport)
        try store.recordTransfer(.uploaded, of: file.hash)
        forgetAddresses(of: file)
        return true
    }

    // MARK: - Claims

    /// Claims a file the server holds for the items here that refer to it: commits the server's
    /// own manifest again, naming them, without reading the file. A file the server lacks (a
    /// restore, or purged while its items were gone) is sent again by the next step when this
    /// device holds it (false then); else it shows as not on the server, and its holder sends it.
    private func claim(
        _ reference: AttachmentReference, at address: String, transport: any AttachmentTransport
    ) async throws -> Bool {
        let manifest: FileManifest
        do {
            manifest = try await transport.file(address)
        } catch {
            guard case .status(404, _, _) = error else { throw error }
            guard store.attachmentStore.contains(reference.file.hash) else { return true }
            try store.recordTransfer(.uploading(sentBytes: 0), of: reference.file.hash)
            return false
        }
        try await commit(
            FileManifest(size: manifest.size, chunks: manifest.chunks), of: reference.file.hash, at: address,
            claiming: reference.items, transport: transport)
        return true
    }

    /// Commits a manifest that names `items` as the file's claims, then records them. A server
    /// from before claims refuses the key: the file is committed without it, which keeps it
    /// there for ever, and the claims count as made.
    private func commit(
        _ manifest: FileManifest, of hash: String, at address: String, claiming items: [String],
        transport: any AttachmentTransport
    ) async throws {
        var claiming = manifest
        claiming.items = items
        do {
            try await transport.commitFile(address, manifest: claiming)
        } catch {
            guard case .status(400, let body?, _) = error, body.message.contains("unknown key 'items'") else {
                throw error
            }
            try await transport.commitFile(address, manifest: manifest)
        }
        try store.recordClaims(of: items, on: hash, at: address)
    }

    /// The addresses of the file's sealed chunks, read once per process; an encrypted file's
    /// sealed chunks are kept beside them (`SealedCopy`) when the disk takes them.
    private func addresses(of file: AttachedFile, count: Int, sealer: any ChunkSealer) throws -> AddressedFile {
        if let known = addressCache.withLock({ $0[Self.cacheKey(file)] }) { return known }
        let copy = sealer.sealsChunks ? SealedCopy(in: store.attachmentStore.directory + "/tmp") : nil
        var keeping = copy != nil
        var chunks: [String] = []
        chunks.reserveCapacity(count)
        for index in 0..<count {
            let sealed = try sealedChunk(index, count: count, of: file, sealer: sealer)
            chunks.append(try sealer.address(ofSealed: sealed, of: file))
            // A chunk that could not be kept, and every one after it, is sealed again to be sent.
            if keeping, let copy { keeping = copy.append(sealed) }
        }
        let addressed = AddressedFile(chunks: chunks, sealed: copy)
        addressCache.withLock { $0[Self.cacheKey(file)] = addressed }
        return addressed
    }

    /// Chunk `index` of `file` (of `count`) read from the store and sealed.
    private func sealedChunk(_ index: Int, count: Int, of file: AttachedFile, sealer: any ChunkSealer) throws -> Data {
        let chunkSize = AttachmentProtocol.chunkSize
        let plain = try store.attachmentStore.read(
            file.hash, offset: Int64(index) * Int64(chunkSize), length: chunkSize)
        return try sealer.seal(plain, index: index, isLast: index == count - 1, of: file)
    }

    private func forgetAddresses(of file: AttachedFile) {
        addressCache.withLock { _ = $0.removeValue(forKey: Self.cacheKey(file)) }
    }

    /// Drops what was kept for files no longer attached (or keyed anew): their sealed copies
    /// would otherwise hold disk space for as long as the process runs.
    private func forgetAddresses(except files: [AttachedFile]) {
        let wanted = Set(files.map(Self.cacheKey))
        addressCache.withLock { cache in
            for key in cache.keys where !wanted.contains(key) { cache.removeValue(forKey: key) }
        }
    }

    /// The same content under another key has other addresses.
    private static func cacheKey(_ file: AttachedFile) -> String { "\(file.hash) \(file.wrappedKey ?? "-")" }

    /// Chunks of about 1 MiB; an empty file has none.
    static func chunkCount(size: Int64) -> Int {
        Int((size + Int64(AttachmentProtocol.chunkSize) - 1) / Int64(AttachmentProtocol.chunkSize))
    }

    // MARK: - Download

    /// Downloads `file` into the store, going on from the chunks a partial download holds;
    /// true when it is here (or not on the server yet: another round tries again; or its copy
    /// there does not open, which is recorded on the file), false when the budget ran out or
    /// item work waits.
    public func download(
        _ file: AttachedFile, transport: any AttachmentTransport, sealer: (any ChunkSealer)? = nil, budget: inout Int,
        itemWorkWaiting: @Sendable () -> Bool
    ) async throws -> Bool {
        var awaited = false
        return try await download(
            file, transport: transport, sealer: sealer, budget: &budget, itemWorkWaiting: itemWorkWaiting,
            awaited: &awaited)
    }

    /// `download`, setting `awaited` when the file is not on the server yet.
    private func download(
        _ file: AttachedFile, transport: any AttachmentTransport, sealer: (any ChunkSealer)?, budget: inout Int,
        itemWorkWaiting: @Sendable () -> Bool, awaited: inout Bool
    ) async throws -> Bool {
        let sealer = sealer ?? self.sealer
        do {
            return try await fetch(
                file, transport: transport, sealer: sealer, budget: &budget, itemWorkWaiting: itemWorkWaiting,
                awaited: &awaited)
        } catch let error as FileCipherError {
            // Fetching it again would bring the same bytes: the file is marked, not retried.
            store.attachmentStore.discardPartial(file.hash)
            try store.recordTransfer(.refused(reason: error.description), of: file.hash)
            return true
        }
    }

    private func fetch(
        _ file: AttachedFile, transport: any AttachmentTransport, sealer: any ChunkSealer, budget: inout Int,
        itemWorkWaiting: @Sendable () -> Bool, awaited: inout Bool
    ) async throws -> Bool {
        let local = store.attachmentStore
        let address = try sealer.fileAddress(of: file)
        let manifest: FileManifest
        do {
            manifest = try await transport.file(address)
        } catch {
            // Not uploaded yet by the device that attached it: the next round asks again, and
            // the worker starts it sooner than the periodic pull (`filesAwaitedLooks`).
            if case .status(404, _, _) = error {
                awaited = true
                return true
            }
            throw error
        }
        if file.wrappedKey != nil, manifest.chunks.count != Self.chunkCount(size: file.size) {
            throw FileCipherError.wrongChunkCount(
                listed: manifest.chunks.count, expected: Self.chunkCount(size: file.size))
        }
        let chunkSize = Int64(AttachmentProtocol.chunkSize)
        let have = Int(min(Int64(manifest.chunks.count), local.partialSize(of: file.hash) / chunkSize))
        let output = try local.openPartial(file.hash, keeping: Int64(have) * chunkSize)
        defer { try? output.close() }
        for index in have..<manifest.chunks.count {
            guard budget > 0, !itemWorkWaiting() else { return false }
            let address = manifest.chunks[index]
            let sealed = try await transport.chunk(address)
            guard try sealer.address(ofSealed: sealed, of: file) == address else {
                // A sealed file's chunk that is not what its keyed address names was put there
                // by the server: the file is marked, as for one that does not open.
                if file.wrappedKey != nil { throw FileCipherError.chunkFailedToOpen(index: index) }
                throw SyncTransportError.invalidAnswer("chunk \(address.prefix(12))… does not match its address")
            }
            let plain = try sealer.open(sealed, index: index, isLast: index == manifest.chunks.count - 1, of: file)
            try output.write(contentsOf: plain)
            budget -= 1
            progress.moved(file.hash)
        }
        try output.synchronize()
        try local.finishPartial(file.hash)
        // The server holds it: nothing to upload from here.
        try store.recordTransfer(.uploaded, of: file.hash)
        progress.moved(file.hash)
        return true
    }
}

/// A file's chunk addresses as this process computed them, and, for an encrypted file, the
/// sealed chunks computing them made (nil for a plain file, whose chunks go as they are read).
struct AddressedFile: Sendable {
    let chunks: [String]
    let sealed: SealedCopy?
}
