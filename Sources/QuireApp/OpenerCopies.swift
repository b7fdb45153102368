import Foundation
import QuireCore

/// The copies of attached files handed to the opener, `$TMPDIR/quire-open/<hash>/<name>`.
///
/// An opener such as xdg-open returns at once and the program it starts reads the file later,
/// so a copy cannot go when its opener returns. Copies older than a day go when the app starts
/// and whenever it opens another; on the way out the app removes its own copies whose opener
/// has ended. A copy one of this app's openers is still running on is never removed. File
/// times are the system's, so the clock here is too.
///
/// Used from the UI queue and from the threads that await openers: `lock` guards `running`.
final class OpenerCopies: @unchecked Sendable {
    /// How long a copy is left for the program its opener started.
    static let keptFor: TimeInterval = 24 * 60 * 60

    let folder: String
    private let lock = NSLock()
    /// This app's copies, by path, with how many of its openers are running on each.
    private var running: [String: Int] = [:]

    init(temporaryDirectory: String) {
        folder = (temporaryDirectory as NSString).appendingPathComponent("quire-open")
    }

    /// Where the copy of `file` goes: under its own name (openers choose a program by it), in a
    /// folder of its content's own, so two files of one name do not meet.
    func path(for file: AttachedFile) -> String {
        (folder as NSString).appendingPathComponent("\(file.hash.prefix(16))/\(file.name)")
    }

    /// An opener is about to read the copy at `path` (called before the copy is written).
    func openerStarting(on path: String) {
        lock.withLock { running[path, default: 0] += 1 }
    }

    /// That opener ended (or never started).
    func openerEnded(on path: String) {
        lock.withLock { running[path, default: 1] -= 1 }
    }

    /// Removes the copies last written more than `keptFor` before `now`, by any run of the app,
    /// but none an opener of this one is running on. Each removal is decided under the lock
    /// that `openerStarting` takes before its copy's folder is made, so a copy being written
    /// now never loses its folder.
    func removeStale(now: Date = Date()) {
        let files = FileManager.default
        for entry in (try? files.contentsOfDirectory(atPath: folder)) ?? [] {
            let subfolder = (folder as NSString).appendingPathComponent(entry)
            for name in (try? files.contentsOfDirectory(atPath: subfolder)) ?? [] {
                let path = (subfolder as NSString).appendingPathComponent(name)
                guard let written = (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                    now.timeIntervalSince(written) > Self.keptFor
                else { continue }
                lock.withLock {
                    if running[path, default: 0] <= 0 { try? files.removeItem(atPath: path) }
                }
            }
            lock.withLock {
                guard !running.contains(where: { $0.value > 0 && $0.key.hasPrefix(subfolder + "/") }) else { return }
                rmdir(subfolder)  // only when empty
            }
        }
    }

    /// Removes this app's copies whose openers have all ended (the app is quitting).
    func removeOwn() {
        let done = lock.withLock {
            let done = running.filter { $0.value <= 0 }.keys
            for path in done { running[path] = nil }
            return Array(done)
        }
        for path in done {
            try? FileManager.default.removeItem(atPath: path)
            rmdir((path as NSString).deletingLastPathComponent)
        }
    }
}
