import Foundation
import QuireCore
import QuireStore
import QuireUI

/// One hand-off of an item to `$EDITOR`, with every save of the file written to the store as
/// it happens: if the terminal dies while the editor runs, what was saved is already a change
/// waiting to sync.
///
/// The file is the same Markdown-with-front-matter that `quire edit` opens. Only the fields that
/// differ between one save and the next are written, so changes other processes make to other
/// fields meanwhile are not undone. The watcher runs on its own queue because the UI queue is
/// blocked waiting for the editor; `lock` guards what both touch.
final class ExternalEditSession: @unchecked Sendable {
    let original: Item
    let path: String
    private let items: any ItemSource
    private let watchQueue = DispatchQueue(label: "quire.editor-watch")
    private let lock = NSLock()
    /// The file's content when last looked at.
    private var lastContent: String
    private var lastStat: FileStamp?
    /// The item as the last good save of the file describes it.
    private var lastSaved: Item
    /// Why the latest save could not be written (nil when it was, or when there was none).
    private var lastProblem: String?
    /// How the saves met the item: the most telling outcome so far (review over merged).
    private var met = SavedWrite.Outcome.saved
    private var timer: (any DispatchSourceTimer)?

    init(item: Item, items: any ItemSource, directory: String) {
        original = item
        lastSaved = item
        self.items = items
        lastContent = MarkdownItem.renderForEditing(item)
        let directory = directory.hasSuffix("/") ? directory : directory + "/"
        path = directory + "quire-edit-\(item.id.prefix(8))-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).md"
    }

    /// Writes the item to its file (readable by the person only).
    func prepare() throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(lastContent.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ChildProcess.SpawnError(description: "cannot create the file \(path)") }
        lastStat = FileStamp(path: path)
    }

    /// Checks the file every `interval` until `stopWatching`.
    func startWatching(every interval: DispatchTimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: watchQueue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
        self.timer = timer
    }

    /// Stops the watcher and takes one last look at the file.
    func stopWatching() {
        watchQueue.sync {
            timer?.cancel()
            timer = nil
        }
        watchQueue.sync { check() }
    }

    /// Writes the file's latest save to the store if it changed and reads as an item.
    private func check() {
        guard let stamp = FileStamp(path: path) else { return }
        lock.lock()
        defer { lock.unlock() }
        if stamp == lastStat { return }
        lastStat = stamp
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let text = String(data: data, encoding: .utf8) else {
            lastProblem = "the file is not UTF-8 text"
            return
        }
        if text == lastContent { return }
        lastContent = text
        let edited: Item
        do {
            edited = try MarkdownItem.applyingEdit(text, to: lastSaved)
        } catch {
            lastProblem = "cannot read the edited item (\(error.description))"
            return
        }
        let changes = edited.changes(since: lastSaved)
        guard !changes.isEmpty else {
            lastProblem = nil
            return
        }
        do {
            // Each save starts from the one before it (the file holds nothing newer): what
            // another writer changed since merges in, and the file's next save builds on that.
            let saved = try items.save(original.id, from: changes.mapValues(\.from), to: changes.mapValues(\.to))
            if saved.outcome == .needsReview || (saved.outcome == .merged && met != .needsReview) {
                met = saved.outcome
            }
            lastSaved = edited
            lastProblem = nil
        } catch {
            lastProblem = String(describing: error)
        }
    }

    /// How the session ended, for the status bar and undo. Removes the file unless its last
    /// save could not be written (then the person's text stays there and the message says where).
    func outcome(editorStatus: Int32?, startError: String?) -> ExternalEditOutcome {
        lock.lock()
        defer { lock.unlock() }
        let changed = lastSaved.changes(since: original)
        let before = changed.isEmpty ? nil : changed.mapValues(\.from)
        var error: String?
        if let startError {
            error = startError
        } else if let problem = lastProblem {
            error = "\(problem); your text is kept at \(path)"
        } else if let status = editorStatus, status != 0, changed.isEmpty {
            error = "the editor exited with status \(status); nothing changed"
        }
        if lastProblem == nil { try? FileManager.default.removeItem(atPath: path) }
        return ExternalEditOutcome(id: original.id, before: before, title: lastSaved.title, error: error, met: met)
    }
}

/// What tells one save of a file from the next without reading it.
struct FileStamp: Equatable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
