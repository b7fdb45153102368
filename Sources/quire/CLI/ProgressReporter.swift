import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

/// Shows a `ProgressLine` on standard error while long work runs, rewritten in place at most
/// ten times a second, and wiped when the work ends so the command's own output stands alone.
///
/// Silent when standard error is not a terminal (a script's log gets no carriage returns) or
/// with `--quiet`. Unchecked Sendable: it is used by one command at a time, from the main
/// thread or from the one sync task whose exchanges follow each other, never at once.
final class ProgressReporter: @unchecked Sendable {
    private let enabled: Bool
    private let started = ProgressReporter.seconds()
    private var lastShown = 0.0
    private var shown = false

    init(quiet: Bool) {
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Notes that `done` of `total` are done (or `fraction` of the work, when the total is not
    /// known); draws the line when a tenth of a second has passed since the last one.
    func update(_ line: ProgressLine, done: Int, total: Int? = nil, fraction: Double? = nil) {
        guard enabled else { return }
        let now = Self.seconds()
        guard now - lastShown >= 0.1 else { return }
        lastShown = now
        let text = line.text(done: done, total: total, fraction: fraction, elapsed: now - started)
        write("\r" + text + "\u{1B}[K")
        shown = true
    }

    /// Wipes the line, if one was drawn.
    func finish() {
        guard shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
