import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare TCP connection to a server on loopback, for tests of what a hostile client does
/// byte by byte (sends nothing, trickles a head, opens thousands and waits).
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    /// Connects to `127.0.0.1:port` from the loopback address `source` (on Linux every
    /// 127.x.y.z is this machine, so another source address stands for another client).
    /// With `waiting: false` the connect is left in flight: the kernel finishes it whether
    /// or not the server ever accepts.
    /// `receiveBuffer` shrinks the socket's receive buffer (a client that reads slowly or not
    /// at all then holds the server's answer in the server's memory, not its own).
    init(port: Int, from source: String = "127.0.0.1", waiting: Bool = true, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | (waiting ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard descriptor >= 0 else { throw ChildError("socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = RawConnection.address(source, port: 0)
        var remote = RawConnection.address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw ChildError("bind \(source): errno \(errno)")
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 || (!waiting && errno == EINPROGRESS) else {
            close(descriptor)
            throw ChildError("connect: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `bytes`; false once the connection is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends `bytes` one every `interval` (a slow client's pace) until the server closes the
    /// connection or `seconds` pass; the seconds it took the server to close it, or nil.
    /// Blocks the calling thread (run it with `onThread`).
    func trickle(_ bytes: [UInt8], every interval: Double, within seconds: Double) -> Double? {
        let started = Date()
        var next = 0
        while Date().timeIntervalSince(started) < seconds {
            if isClosed(waiting: interval) { return Date().timeIntervalSince(started) }
            if next < bytes.count {
                send([bytes[next]])
                next += 1
            }
        }
        return nil
    }

    /// Closes the sending side and reads what the server answers until it closes the
    /// connection or `seconds` pass. Blocks the calling thread.
    func halfCloseAndRead(within seconds: Double) -> String {
        shutdown(descriptor, Int32(SHUT_WR))
        return String(decoding: read(within: seconds).bytes, as: UTF8.self)
    }

    /// Reads until the server closes the connection or `seconds` pass; what arrived, and
    /// whether the connection ended. Blocks the calling thread.
    func read(within seconds: Double) -> (bytes: [UInt8], ended: Bool) {
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(deadline.timeIntervalSinceNow * 1000)) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (answer, true) }
            answer += buffer.prefix(count)
        }
        return (answer, false)
    }

    /// Waits up to `seconds` for the server to close the connection, reading (and
    /// dropping) whatever it sends; the seconds it took, or nil. Blocks the calling thread.
    func closedByServer(within seconds: Double) -> Double? {
        trickle([], every: 0.1, within: seconds)
    }

    /// True when the server closed the connection (end of stream or reset) within `waiting`
    /// seconds; anything it sent meanwhile is read and dropped.
    private func isClosed(waiting seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, left) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }
}

/// Why a raw connection could not be made.
struct ChildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking `work` on a thread of its own, so it does not hold a thread of the
/// concurrency pool other tests need.
func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
