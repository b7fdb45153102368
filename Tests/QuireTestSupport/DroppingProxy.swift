import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP proxy in front of a real server that can lose answers: it forwards each
/// request whole, reads the server's whole answer (so the server has done the work), and then,
/// when told to, closes the client's connection without a byte of it.
///
/// One request per connection (it asks the server to close); a thread per connection.
public final class DroppingProxy: @unchecked Sendable {
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var answersToDrop = 0
    private var dropped = 0

    /// Listens on a free loopback port and forwards to `127.0.0.1:targetPort`.
    public init(targetPort: Int) throws {
        target = targetPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = DroppingProxy.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw ChildProcessError("the proxy cannot listen")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: actual.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close(listener) }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The next `count` answers to writes (a push) are lost after the server has sent them.
    /// Answers to reads go through: a device may ask the server a question first (whether it
    /// takes gzip, before a large push), and losing that answer loses no work the server did.
    public func dropAnswers(_ count: Int) { lock.withLock { answersToDrop += count } }

    /// How many answers were lost so far.
    public var droppedAnswers: Int { lock.withLock { dropped } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = DroppingProxy.readRequest(client) else { return }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = DroppingProxy.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0, DroppingProxy.writeAll(server, request) else { return }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(server, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        let read = ["GET ", "HEAD "].contains { request.starts(with: Array($0.utf8)) }
        let drop = lock.withLock {
            guard answersToDrop > 0, !read else { return false }
            answersToDrop -= 1
            dropped += 1
            return true
        }
        if !drop { _ = DroppingProxy.writeAll(client, DroppingProxy.closing(answer)) }
    }

    /// The same message with `Connection: close`, so the client never reuses a connection the
    /// proxy is about to close.
    private static func closing(_ message: [UInt8]) -> [UInt8] {
        guard let end = message.firstRange(of: Array("\r\n\r\n".utf8)) else { return message }
        let head = String(decoding: message[..<end.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n").filter { !$0.lowercased().hasPrefix("connection:") }
        return Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8)
            + message[end.upperBound...]
    }

    /// The request's head and body (by `Content-Length`), with `Connection: close`.
    private static func readRequest(_ socket: Int32) -> [UInt8]? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = data.firstRange(of: separator) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while data.count < end.upperBound + length {
                    let count = read(socket, &buffer, buffer.count)
                    if count <= 0 { return nil }
                    data += buffer[0..<count]
                }
                return closing(Array(data[..<(end.upperBound + length)]))
            }
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { return nil }
            data += buffer[0..<count]
        }
    }

    private static func writeAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
