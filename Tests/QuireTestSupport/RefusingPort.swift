import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses every connection and that no other test can take while this
/// lives: a socket bound to it that never listens. A stopped server's port is not that: in a
/// parallel run another test's server may start on it at once (and answer 401).
public final class RefusingPort: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    /// A free port, or `port` when given: a stopped server's, kept from other tests until it
    /// starts there again (release this first).
    public init(port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        // A stopped server's port still has its closed connections waiting out TIME_WAIT;
        // without this, binding it fails until they are gone (as the server's own restart
        // would, which sets it too).
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = DroppingProxy.loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard descriptor >= 0, bound == 0, named == 0 else {
            close(descriptor)
            throw ChildProcessError("cannot bind a loopback port")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { close(descriptor) }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
