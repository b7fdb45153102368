import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the self-pipe; set once before any handler is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signal handler: writes the signal number into the pipe (async-signal-safe, never blocks).
private let writeSignalToPipe: @convention(c) (Int32) -> Void = { signal in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Turns signals into bytes on a pipe, read on a Dispatch queue: the classic self-pipe.
///
/// Dispatch's own signal sources are not used: on Linux they read a signalfd, which misses a
/// signal that the kernel hands to a thread not blocking it; then the app would not hear a
/// SIGHUP or SIGTERM at all. A plain handler runs on whichever thread gets the signal.
final class SignalPipe: @unchecked Sendable {
    private let readEnd: Int32
    private var source: (any DispatchSourceRead)?

    /// Installs the handler for `signals`. Call once, before other code installs handlers.
    init(signals: [Int32]) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        for signal in signals { _ = Glibc.signal(signal, writeSignalToPipe) }
    }

    /// Calls `handler` on `queue` with each signal that arrives.
    func start(on queue: DispatchQueue, _ handler: @escaping @Sendable (Int32) -> Void) {
        guard readEnd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        let descriptor = readEnd
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                for byte in buffer[0..<count] { handler(Int32(byte)) }
            }
        }
        source.resume()
        self.source = source
    }

    func stop() {
        source?.cancel()
        source = nil
    }
}
