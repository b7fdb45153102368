import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An encrypted file's sealed chunks, kept from the moment their addresses are computed until
/// they are sent, so that each chunk is sealed once.
///
/// The address of a sealed chunk is a hash of its sealed bytes, and the server is asked which
/// addresses it lacks before anything is sent: every chunk is sealed before the first one goes.
/// Sealing and hashing are most of an encrypted upload's work on the device (3 ms of about
/// 6.5 ms per MiB, measured); reading the copy back costs a copy from the page cache.
///
/// The copy is a file beside the attachment store's own, never in memory (a file may be
/// 100 MiB or more). Its name is removed as soon as it is open: nothing is left on disk when
/// the process ends or crashes, and the store's clean-up of its temporary folder cannot take
/// it from under an upload. Readable by its owner only, as the store is.
///
/// Any failure to write or read it is not an error: the upload seals the chunk again.
final class SealedCopy: Sendable {
    private let descriptor: Int32
    /// Where each chunk lies in the file, by index.
    private let extents = Mutex<[Range<Int64>]>([])

    /// An empty copy in `folder` (created when missing); nil when no file can be made there.
    init?(in folder: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/sealed-\(UUID().uuidString)"
        let opened = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard opened >= 0 else { return nil }
        unlink(path)
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// Keeps `sealed` as the next chunk; false when it could not be written (the copy is then
    /// of no use past the chunks it holds).
    func append(_ sealed: Data) -> Bool {
        extents.withLock { extents in
            let start = extents.last?.upperBound ?? 0
            let written = sealed.withUnsafeBytes { bytes -> Bool in
                var done = 0
                while done < bytes.count {
                    let count = pwrite(
                        descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(start) + off_t(done))
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return false }
                    done += count
                }
                return true
            }
            guard written else { return false }
            extents.append(start..<start + Int64(sealed.count))
            return true
        }
    }

    /// Sealed chunk `index`, nil when the copy does not hold it or it cannot be read.
    func chunk(_ index: Int) -> Data? {
        guard let extent = extents.withLock({ $0.indices.contains(index) ? $0[index] : nil }) else { return nil }
        var chunk = Data(count: Int(extent.count))
        let read = chunk.withUnsafeMutableBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let count = pread(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(extent.lowerBound) + off_t(done))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return read ? chunk : nil
    }
}
