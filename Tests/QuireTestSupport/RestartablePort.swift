import Foundation

/// Ports for a server that a test stops and starts again on the same port.
///
/// A port the kernel hands out (`--port 0`) comes from the range it also gives every outgoing
/// connection and every other test's server (`ip_local_port_range`): between the stop and the
/// restart, any of them may take it, and the restart fails with the address in use. A port
/// outside that range is never handed out; only another test that chose the same one at random
/// can hold it, and the start then tries the next.
public enum RestartablePort {
    /// The ports the kernel hands out, as this machine is set (Linux's default when unread).
    public static var handedOut: ClosedRange<Int> {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return 32768...60999 }
        return bounds[0]...bounds[1]
    }

    /// A few ports outside `handedOut`, in random order: below it when there is room, else above.
    public static func candidates(count: Int = 8) -> [Int] {
        let range = handedOut
        let outside = range.lowerBound > 11_024 ? 10_000...(range.lowerBound - 1) : (range.upperBound + 1)...65_535
        return (0..<count).map { _ in Int.random(in: outside) }
    }
}

extension ServerProcess {
    /// As `init(serve:)`, on a port outside the range the kernel hands out (`RestartablePort`),
    /// for a test that stops the server and starts it again on that port.
    public static func restartable(serve arguments: [String]) async throws -> ServerProcess {
        var failure: (any Error)?
        for port in RestartablePort.candidates() {
            do {
                return try await ServerProcess(serve: arguments + ["--port", String(port)])
            } catch {
                failure = error
            }
        }
        throw failure ?? ChildProcessError("no port outside the kernel's range could be bound")
    }

    /// As `restartable(serve:)`, blocking the calling thread while it waits.
    public static func restartable(serveBlocking arguments: [String]) throws -> ServerProcess {
        var failure: (any Error)?
        for port in RestartablePort.candidates() {
            do {
                return try ServerProcess(serveBlocking: arguments + ["--port", String(port)])
            } catch {
                failure = error
            }
        }
        throw failure ?? ChildProcessError("no port outside the kernel's range could be bound")
    }
}
