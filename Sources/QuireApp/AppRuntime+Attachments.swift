import Foundation
import QuireCore
import QuireStore
import QuireUI
import Synchronization

/// The item view's attached files: reading their states, attaching by path, opening with the
/// person's opener beside the app, saving a copy, and fetching a file not here yet first.
extension AppRuntime {
    func performAttachment(_ request: AttachmentRequest) -> [Message] {
        guard let attachments = environment.attachments else {
            if case .readStates = request { return [] }
            return [.attachmentAnswered(.failed("Attached files need the store; these items live in memory"))]
        }
        switch request {
        case .readStates(let id):
            return readStates(of: id, from: attachments).map { [.attachmentStatesRead($0)] } ?? []
        case .attach(let typed, let id):
            let path = resolved(typed)
            onFileLane {
                do {
                    let file = try attachments.attach(path: path, to: id)
                    // Our own write: the list and the view read it now.
                    return (.attached(name: file.name, itemID: id), wrote: true)
                } catch {
                    return (.failed("Cannot attach: \(AppRuntime.oneLine(error))"), wrote: false)
                }
            }
            return [.attachmentAnswered(.underWay("Attaching \((path as NSString).lastPathComponent)…"))]
        case .open(let file):
            guard attachments.isHere(file) else { return [fetch(request, file)] }
            onFileLane { [self] in (open(file, from: attachments), wrote: false) }
            return [.attachmentAnswered(.underWay("Opening \(file.name)…"))]
        case .save(let file, let typed, let replacing):
            guard attachments.isHere(file) else { return [fetch(request, file)] }
            var path = resolved(typed)
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if exists, isFolder.boolValue {
                path = (path as NSString).appendingPathComponent(file.name)
                if !replacing, FileManager.default.fileExists(atPath: path) {
                    return [.attachmentAnswered(.exists(file, path: path))]
                }
            } else if exists, !replacing {
                return [.attachmentAnswered(.exists(file, path: path))]
            }
            onFileLane { [path] in
                do {
                    try attachments.copy(file, to: path)
                    return (.saved(name: file.name, path: path), wrote: false)
                } catch {
                    return (.failed("Cannot save \(file.name): \(AppRuntime.oneLine(error))"), wrote: false)
                }
            }
            return [.attachmentAnswered(.underWay("Saving \(file.name)…"))]
        }
    }

    /// Runs `work` on the file lane once this frame is drawn, and handles its answer on the UI
    /// queue; `wrote` says it committed to the store (the list and the view read it then).
    ///
    /// A file's bytes are hashed and copied there, never on the UI queue: attaching a 100 MB
    /// file reads and writes all of it, and keys pressed meanwhile are drawn as always.
    private func onFileLane(_ work: @escaping @Sendable () -> (AttachmentAnswer, wrote: Bool)) {
        activity.begin()
        fileWork.enter()
        inBackground(on: Self.fileLane) { [self] in
            let (answer, wrote) = work()
            fileWork.leave()
            queue.async { [self] in
                defer { activity.end() }
                guard !isStoppedOnQueue else { return }
                process(
                    wrote
                        ? [.attachmentAnswered(answer), .storeChanged, ownWriteNoted()] : [.attachmentAnswered(answer)])
            }
        }
    }

    /// The states of an item's files, by hash; nil when the item cannot be read.
    private func readStates(of id: String, from attachments: any AttachmentSource) -> AttachmentStates? {
        guard let item = try? environment.items.item(id),
            let states = try? attachments.states(of: item.attachments)
        else { return nil }
        return AttachmentStates(
            itemID: id, byHash: Dictionary(zip(item.attachments.map(\.hash), states)) { first, _ in first })
    }

    /// A download moved (a chunk written, or the file here): the watched item's file states are
    /// read again on the UI queue, once for however many chunks came in meanwhile, and redrawn
    /// only when they changed. Uploads and a download's end are commits, which the store's
    /// change detection hears.
    func transferMoved() {
        let (queued, _) = transferReadQueued.compareExchange(
            expected: false, desired: true, ordering: .acquiringAndReleasing)
        guard queued else { return }
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            transferReadQueued.store(false, ordering: .releasing)
            guard !isStoppedOnQueue, let id = state.attachmentsToWatch, let attachments = environment.attachments,
                let states = readStates(of: id, from: attachments), states != state.attachmentStates
            else { return }
            process([.attachmentStatesRead(states)])
        }
    }

    /// A path as typed in a file prompt, resolved (`~`, relative to where the app started).
    private func resolved(_ typed: String) -> String {
        PathCompletion.resolve(
            typed, home: environment.homeDirectory, workingDirectory: environment.workingDirectory)
    }

    // MARK: - Fetching first

    /// Downloads a file not here yet off the UI queue; the request runs again once it is here.
    private func fetch(_ request: AttachmentRequest, _ file: AttachedFile) -> Message {
        let sync = environment.sync
        activity.begin()
        Task.detached { [self] in
            defer { activity.end() }
            do {
                try await sync.fetch(file)
                send(.attachmentAnswered(.fetched(request)))
            } catch {
                send(.attachmentAnswered(.failed("Cannot open \(file.name): \(error)")))
            }
        }
        return .attachmentAnswered(.fetching(request))
    }

    // MARK: - Opening

    /// Copies the file out under its own name (openers choose a program by it, and must not
    /// touch the store's copy), then starts the opener beside the app. The opener's end is
    /// awaited off the UI queue: a shell that could not find it says so as a notice. Day-old
    /// copies go first (`OpenerCopies`).
    private func open(_ file: AttachedFile, from attachments: any AttachmentSource) -> AttachmentAnswer {
        let path = openerCopies.path(for: file)
        let command = environment.openCommand
        openerCopies.openerStarting(on: path)
        removeStaleOpenerCopies()
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try attachments.copy(file, to: path)
            let pid = try ChildProcess.spawn(
                shellCommand: command, arguments: [path], environment: environment.processEnvironment, beside: true)
            activity.begin()
            DispatchQueue.global(qos: .utility).async { [self] in
                defer { activity.end() }
                let status = ChildProcess.wait(pid)
                openerCopies.openerEnded(on: path)
                if let problem = AppRuntime.openerFailure(status, command: command, name: file.name) {
                    send(.attachmentAnswered(.failed(problem)))
                }
            }
            return .opened(name: file.name, with: command)
        } catch {
            openerCopies.openerEnded(on: path)
            return .failed("Cannot open \(file.name): \(AppRuntime.oneLine(error))")
        }
    }

    /// Removes day-old opener copies off the UI queue (a folder read, and a removal or two).
    func removeStaleOpenerCopies() {
        activity.begin()
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { activity.end() }
            openerCopies.removeStale()
        }
    }

    /// What an opener's exit status says, as the status bar's notice; nil when it succeeded.
    static func openerFailure(_ status: Int32, command: String, name: String) -> String? {
        switch status {
        case 0: nil
        case 127: "Cannot open \(name): '\(command)' was not found; set $QUIRE_OPEN to a program that opens files"
        case 126: "Cannot open \(name): '\(command)' cannot be run; set $QUIRE_OPEN to a program that opens files"
        default: "Cannot open \(name): '\(command)' ended with status \(status)"
        }
    }

    /// An error's words on one line (the status bar has one).
    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

// MARK: - Path completion

extension AppRuntime {
    /// The names in the typed path's folder that complete it (folders end in `/`); none when
    /// the folder cannot be read.
    func paths(completing typed: String) -> [String] {
        let (folder, partial) = PathCompletion.split(typed)
        let directory = PathCompletion.resolve(
            folder, home: environment.homeDirectory, workingDirectory: environment.workingDirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let entries = names.map { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: (directory as NSString).appendingPathComponent(name), isDirectory: &isFolder)
            return (name: name, isFolder: isFolder.boolValue)
        }
        return PathCompletion.candidates(partial, among: entries)
    }
}
