import Dispatch
import Foundation

/// Notices when the sync settings change on disk (`quire remote set`, `remote remove` or a new
/// token, run in another terminal) by looking at both files twice a second.
///
/// A look is one `stat` per file, cheap enough to run while the app is open. Queue-confined:
/// its state belongs to `queue`.
public final class SettingsWatcher: @unchecked Sendable {
    private let paths: [String]
    private let queue = DispatchQueue(label: "quire.settings-watcher")
    private let onChange: @Sendable () -> Void
    // Owned by `queue`.
    private var timer: (any DispatchSourceTimer)?
    private var last: [String]

    public init(settings: SyncSettings, onChange: @escaping @Sendable () -> Void) {
        paths = [settings.configPath, settings.credentialsPath]
        self.onChange = onChange
        last = paths.map(SettingsWatcher.fingerprint)
    }

    public func start(every interval: DispatchTimeInterval = .milliseconds(500)) {
        queue.async {
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [weak self] in self?.look() }
            timer.resume()
            self.timer = timer
        }
    }

    public func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    private func look() {
        let now = paths.map(SettingsWatcher.fingerprint)
        guard now != last else { return }
        last = now
        onChange()
    }

    /// Size, modification time and inode: a rewrite by rename changes the inode, an edit in
    /// place the time or size.
    static func fingerprint(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
