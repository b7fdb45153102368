import Crypto
import Foundation
import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of attached files on this device: content-addressed files under the data
/// directory (`attachments/ab/abcd…`, by the SHA-256 of their bytes).
///
/// A file attached to two items, or twice, is stored once. Every file arrives whole or not at
/// all: it is written to a temporary file in the same directory tree, flushed to disk, then
/// renamed into place, so a crash leaves either no file or the complete one, never half of it.
/// Files go when nothing references them any more (`AppDatabase.collectAttachments`).
public struct AttachmentStore: Sendable {
    /// `<data>/attachments`.
    public let directory: String

    /// How much is read or written at a time: the size of a sync chunk too.
    public static let pieceSize = 1 << 20

    public init(directory: String) {
        self.directory = directory
    }

    /// Where the file with this hash lives (whether it is there or not).
    public func path(of hash: String) -> String {
        "\(directory)/\(hash.prefix(2))/\(hash)"
    }

    /// True when the bytes of `hash` are here.
    public func contains(_ hash: String) -> Bool {
        FileManager.default.fileExists(atPath: path(of: hash))
    }

    // MARK: - Adding

    /// Copies the file at `source` in, hashing it on the way; returns its hash and size.
    /// Nothing is left behind when it fails.
    public func add(fileAt source: String) throws(AttachmentStoreError) -> (hash: String, size: Int64) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw .missing(source)
        }
        guard !isDirectory.boolValue else { throw .notAFile(source) }
        guard let input = FileHandle(forReadingAtPath: source) else { throw .unreadable(source) }
        defer { try? input.close() }
        return try write { output throws(AttachmentStoreError) in
            var hasher = SHA256()
            var size: Int64 = 0
            while true {
                let piece: Data
                do {
                    guard let read = try input.read(upToCount: Self.pieceSize), !read.isEmpty else { break }
                    piece = read
                } catch {
                    throw .unreadable(source)
                }
                hasher.update(data: piece)
                size += Int64(piece.count)
                do { try output.write(contentsOf: piece) } catch { throw .writeFailed(describe(error)) }
            }
            return (Self.hex(hasher.finalize()), size)
        }
    }

    /// Adds bytes that arrive in pieces (a download, chunk by chunk): `fill` writes them to the
    /// handle it is given. The result must hash to `expected`, or nothing is kept.
    public func add(
        expecting expected: String, fill: (FileHandle) throws -> Void
    ) throws(AttachmentStoreError) {
        _ = try write { output throws(AttachmentStoreError) in
            do { try fill(output) } catch { throw .writeFailed(describe(error)) }
            let hash: String
            do { hash = try Self.hash(of: output) } catch { throw .writeFailed(describe(error)) }
            guard hash == expected else { throw .corrupt(expected) }
            return (hash, Int64(0))
        }
    }

    /// Writes a temporary file with `body`, flushes it, and renames it to the place of the hash
    /// `body` returns (dropping it when that file is already there: same bytes, same name).
    private func write(
        _ body: (FileHandle) throws(AttachmentStoreError) -> (hash: String, size: Int64)
    ) throws(AttachmentStoreError) -> (hash: String, size: Int64) {
        let temporaryDirectory = directory + "/tmp"
        let temporary = temporaryDirectory + "/" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(
                atPath: temporaryDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed(describe(error))
        }
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
            let output = FileHandle(forUpdatingAtPath: temporary)
        else { throw .writeFailed("cannot create a file in \(temporaryDirectory)") }
        var kept = false
        defer {
            try? output.close()
            if !kept { try? FileManager.default.removeItem(atPath: temporary) }
        }
        let result = try body(output)
        let final = path(of: result.hash)
        if FileManager.default.fileExists(atPath: final) { return result }
        do {
            try output.synchronize()
            let folder = (final as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard rename(temporary, final) == 0 else {
                throw AttachmentStoreError.writeFailed(String(cString: strerror(errno)))
            }
            kept = true
            Self.synchronizeDirectory(folder)
        } catch let error as AttachmentStoreError {
            throw error
        } catch {
            throw .writeFailed(describe(error))
        }
        return result
    }

    // MARK: - Downloading

    /// Where a download assembles a file's bytes, chunk after chunk, until `finishPartial`: a
    /// download that stops keeps what it has, and the next one goes on from there.
    public func partialPath(of hash: String) -> String {
        "\(directory)/partial/\(hash)"
    }

    /// Opens the partial file of `hash` to append to, keeping its first `keeping` bytes (the
    /// whole chunks it holds) and dropping anything after them; creates it when missing.
    public func openPartial(_ hash: String, keeping: Int64) throws(AttachmentStoreError) -> FileHandle {
        let path = partialPath(of: hash)
        do {
            try FileManager.default.createDirectory(
                atPath: directory + "/partial", withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed(describe(error))
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw .writeFailed("cannot create \(path)") }
        }
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .writeFailed("cannot open \(path)") }
        do {
            try handle.truncate(atOffset: UInt64(keeping))
            try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw .writeFailed(describe(error))
        }
        return handle
    }

    /// Removes the partial file of `hash`: what it held cannot be used (it did not open).
    public func discardPartial(_ hash: String) {
        try? FileManager.default.removeItem(atPath: partialPath(of: hash))
    }

    /// The bytes a partial download holds so far (0 when none started).
    public func partialSize(of hash: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: partialPath(of: hash))
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Checks that the partial file of `hash` is the whole file (it hashes to `hash`), flushes
    /// it and moves it into place. A partial file that does not hash right is removed, so the
    /// next download starts afresh.
    public func finishPartial(_ hash: String) throws(AttachmentStoreError) {
        let path = partialPath(of: hash)
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .notHere(hash) }
        let actual: String
        do {
            actual = try Self.hash(of: handle)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw .writeFailed(describe(error))
        }
        guard actual == hash else {
            try? FileManager.default.removeItem(atPath: path)
            throw .corrupt(hash)
        }
        let final = self.path(of: hash)
        let folder = (final as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed(describe(error))
        }
        guard rename(path, final) == 0 else { throw .writeFailed(String(cString: strerror(errno))) }
        Self.synchronizeDirectory(folder)
    }

    // MARK: - Reading

    /// Copies the bytes of `hash` to `destination` (replacing what is there), checking on the
    /// way that they still hash to their name: a file damaged on disk is refused, not passed on.
    ///
    /// A regular file is replaced whole (a temporary file renamed over it), and through a
    /// symbolic link the file it names is, the link kept. Anything else (`/dev/stdout`, a pipe,
    /// a terminal, `/dev/null`) is written into, as `cp` does: renaming over it would replace
    /// the name with a file, and did (`--output /dev/stdout` put 30 MB where `/dev/stdout` was).
    @discardableResult
    public func copy(_ hash: String, to destination: String) throws(AttachmentStoreError) -> CopyTarget {
        var status = stat()
        if stat(destination, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard let output = FileHandle(forWritingAtPath: destination) else { throw .unwritable(destination) }
            defer { try? output.close() }
            try write(hash, to: output)
            return .stream
        }
        let destination = Self.followingLinks(destination)
        guard let input = FileHandle(forReadingAtPath: path(of: hash)) else { throw .notHere(hash) }
        defer { try? input.close() }
        let temporary = destination + ".quire-" + UUID().uuidString.prefix(8)
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let output = FileHandle(forWritingAtPath: temporary)
        else { throw .unwritable(destination) }
        var moved = false
        defer {
            try? output.close()
            if !moved { try? FileManager.default.removeItem(atPath: temporary) }
        }
        var hasher = SHA256()
        do {
            while let piece = try input.read(upToCount: Self.pieceSize), !piece.isEmpty {
                hasher.update(data: piece)
                try output.write(contentsOf: piece)
            }
            try output.synchronize()
        } catch {
            throw .writeFailed(describe(error))
        }
        guard Self.hex(hasher.finalize()) == hash else { throw .corrupt(hash) }
        guard rename(temporary, destination) == 0 else { throw .unwritable(destination) }
        moved = true
        return .file
    }

    /// What `copy` wrote to: a file it saved, or a stream (a pipe, a terminal, a device) it
    /// wrote into, where a line saying "saved" would land among the bytes.
    public enum CopyTarget: Sendable {
        case file
        case stream
    }

    /// The path a chain of symbolic links ends at; `path` itself when it is no link (or the
    /// chain is broken).
    private static func followingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes the bytes of `hash` to a handle (standard output), checking them as `copy` does;
    /// a damaged file is reported after what was written, so the caller must fail then.
    public func write(_ hash: String, to output: FileHandle) throws(AttachmentStoreError) {
        guard let input = FileHandle(forReadingAtPath: path(of: hash)) else { throw .notHere(hash) }
        defer { try? input.close() }
        var hasher = SHA256()
        do {
            while let piece = try input.read(upToCount: Self.pieceSize), !piece.isEmpty {
                hasher.update(data: piece)
                try output.write(contentsOf: piece)
            }
        } catch {
            throw .writeFailed(describe(error))
        }
        guard Self.hex(hasher.finalize()) == hash else { throw .corrupt(hash) }
    }

    /// The bytes of one piece of a file: `length` bytes from `offset` (fewer at the end).
    public func read(_ hash: String, offset: Int64, length: Int) throws(AttachmentStoreError) -> Data {
        guard let input = FileHandle(forReadingAtPath: path(of: hash)) else { throw .notHere(hash) }
        defer { try? input.close() }
        do {
            try input.seek(toOffset: UInt64(offset))
            return try input.read(upToCount: length) ?? Data()
        } catch {
            throw .writeFailed(describe(error))
        }
    }

    // MARK: - Removing

    /// Removes every file whose hash is not in `referenced`, and temporary files left by a
    /// crash; returns how many files went.
    @discardableResult
    public func remove(allBut referenced: Set<String>) -> Int {
        let manager = FileManager.default
        guard let folders = try? manager.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for folder in folders {
            let folderPath = directory + "/" + folder
            if folder == "tmp" {
                try? manager.removeItem(atPath: folderPath)
                continue
            }
            if folder == "partial" {
                // A download under way keeps its chunks while its file is still wanted.
                for name in (try? manager.contentsOfDirectory(atPath: folderPath)) ?? []
                where !referenced.contains(name) {
                    try? manager.removeItem(atPath: folderPath + "/" + name)
                }
                continue
            }
            guard folder.utf8.count == 2, let names = try? manager.contentsOfDirectory(atPath: folderPath) else {
                continue
            }
            for name in names where AttachedFile.isHash(name) && !referenced.contains(name) {
                if (try? manager.removeItem(atPath: folderPath + "/" + name)) != nil { removed += 1 }
            }
        }
        return removed
    }

    /// Every hash stored here.
    public func hashes() -> Set<String> {
        let manager = FileManager.default
        guard let folders = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        var result = Set<String>()
        for folder in folders where folder.utf8.count == 2 {
            for name in (try? manager.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []
            where AttachedFile.isHash(name) {
                result.insert(name)
            }
        }
        return result
    }

    // MARK: - Helpers

    /// The SHA-256 of everything in a file handle, read from its start.
    static func hash(of handle: FileHandle) throws -> String {
        try handle.seek(toOffset: 0)
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: pieceSize), !piece.isEmpty {
            hasher.update(data: piece)
        }
        return hex(hasher.finalize())
    }

    /// Lowercase hex of a digest.
    static func hex(_ digest: some Sequence<UInt8>) -> String { HexText.lowercase(digest) }

    /// Flushes a directory's entries, so a rename into it survives a power cut.
    private static func synchronizeDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}

/// Why the attachment store could not do what it was asked; one line each.
public enum AttachmentStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file to attach does not exist.
    case missing(String)
    /// The path to attach is a directory or another non-file.
    case notAFile(String)
    case unreadable(String)
    /// The destination of a copy cannot be written.
    case unwritable(String)
    case writeFailed(String)
    /// The bytes do not hash to their address (damaged on disk, or a bad download).
    case corrupt(String)
    /// The bytes of this hash are not on this device (not downloaded yet).
    case notHere(String)

    public var description: String {
        switch self {
        case .missing(let path): "no such file: \(path)"
        case .notAFile(let path): "\(path) is a directory, not a file"
        case .unreadable(let path): "cannot read \(path)"
        case .unwritable(let path): "cannot write \(path)"
        case .writeFailed(let reason): "cannot write to the attachment store: \(reason)"
        case .corrupt(let hash): "the stored file \(hash.prefix(12)) is damaged (its bytes no longer match their hash)"
        case .notHere(let hash): "the file \(hash.prefix(12)) is not on this device yet"
        }
    }
}

/// The system's words for a file error.
private func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
        let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
        return String(cString: strerror(code.rawValue))
    }
    return nsError.localizedDescription
}
