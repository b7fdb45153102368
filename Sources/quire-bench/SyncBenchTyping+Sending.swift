import Foundation
import QuireProtocol
import QuireSync
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension SyncBenchTyping {
    /// Moves the file at `path` as an upload moves it, with no code of the app: read in chunks
    /// of 1 MiB, each hashed, then sent over a loopback socket to a receiver that writes it to a
    /// file in `directory` and syncs that file to disk, chunk by chunk, spread evenly over
    /// `seconds`. The sender runs at the transfer lane's priority, the receiver as the bench
    /// runs the server (`SCHED_IDLE`).
    ///
    /// What moving and storing a file's bytes costs a key on this machine, whoever moves them:
    /// the kernel's work for the socket and the disk runs at its own priority, above any the
    /// app can give its threads. An upload that costs the keys no more than this adds nothing
    /// of its own.
    static func keepSendingBelowTheUI(file path: String, seconds: Double, storingIn directory: String) async throws {
        let (listener, port) = try loopbackListener()
        defer { close(listener) }
        let target = directory + "/received-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: target) }
        // The first failure of the two threads, in words.
        let failure = Mutex<String?>(nil)
        await onThreads(2, for: seconds) { index, _ in
            do {
                if index == 0 {
                    try send(path, toPort: port, over: seconds)
                } else {
                    try receive(from: listener, into: target)
                }
            } catch {
                let words = "\(error)"
                failure.withLock { $0 = $0 ?? words }
            }
        }
        if let words = failure.withLock({ $0 }) { throw BenchFailure(words) }
    }

    /// The chunks of the file at `path`, each read, hashed and written to the socket at its
    /// share of `seconds`, then the socket closed.
    private static func send(_ path: String, toPort port: UInt16, over seconds: Double) throws {
        BackgroundThread.lowerCallingThread(to: BackgroundThread.transferNiceness)
        guard let file = FileHandle(forReadingAtPath: path) else { throw BenchFailure("cannot read \(path)") }
        defer { try? file.close() }
        let socket = try loopbackConnection(to: port)
        defer { close(socket) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let chunks = max(1, (size + AttachmentProtocol.chunkSize - 1) / AttachmentProtocol.chunkSize)
        let start = DispatchTime.now().uptimeNanoseconds
        let interval = UInt64(seconds * 1e9) / UInt64(chunks)
        var hashed = 0
        for index in 0..<chunks {
            let due = start + UInt64(index) * interval
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32((due - now) / 1000)) }
            guard let chunk = try file.read(upToCount: AttachmentProtocol.chunkSize), !chunk.isEmpty else { break }
            hashed &+= ContentHash.sha256Hex(bytes: chunk).utf8.count
            try chunk.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(socket, bytes.baseAddress! + offset, bytes.count - offset)
                    guard written > 0 else { throw BenchFailure("the loopback socket refused a write") }
                    offset += written
                }
            }
        }
        if hashed == -1 { print("") }  // keeps the hashing from being optimized away
    }

    /// Accepts one connection on `listener` and writes what it sends to a new file at `target`,
    /// synced to disk at every MiB and at the end.
    private static func receive(from listener: Int32, into target: String) throws {
        idleCallingThread()
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { throw BenchFailure("the loopback listener accepted nothing") }
        defer { close(connection) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard output >= 0 else { throw BenchFailure("cannot write \(target)") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var unsynced = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress!, $0.count) }
            if count <= 0 { break }
            let written = buffer.withUnsafeBytes { write(output, $0.baseAddress!, count) }
            guard written == count else { throw BenchFailure("a write to \(target) fell short") }
            unsynced += count
            if unsynced >= AttachmentProtocol.chunkSize {
                fsync(output)
                unsynced = 0
            }
        }
        fsync(output)
    }

    /// A socket listening on a port of 127.0.0.1 the kernel picked, and that port.
    private static func loopbackListener() throws -> (Int32, UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchFailure("no socket for the loopback control") }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw BenchFailure("cannot listen on loopback for the control")
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    private static func loopbackConnection(to port: UInt16) throws -> Int32 {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connection >= 0, connected else {
            close(connection)
            throw BenchFailure("cannot connect to the control's loopback port \(port)")
        }
        return connection
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
