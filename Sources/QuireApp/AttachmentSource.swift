import Foundation
import QuireCore
import QuireStore
import QuireSync

/// The attached files' side of the store, as the item view needs it: where each stands, and
/// their bytes to attach, copy out or open.
public protocol AttachmentSource: Sendable {
    /// Where each of `files` stands on this device (`AppDatabase.attachmentStates`).
    func states(of files: [AttachedFile]) throws -> [AttachmentState]
    /// Attaches the file at `path` (already resolved) to the item with full id `id` through
    /// the call `quire attach` makes (keyed at once in an encrypted account); the reference added.
    func attach(path: String, to id: String) throws -> AttachedFile
    /// Whether the bytes of `file` are on this device.
    func isHere(_ file: AttachedFile) -> Bool
    /// Copies the bytes of `file` to `path`, checked against their hash on the way.
    func copy(_ file: AttachedFile, to path: String) throws
}

extension StoreItemSource: AttachmentSource {
    public func states(of files: [AttachedFile]) throws -> [AttachmentState] {
        try store.attachmentStates(of: files)
    }

    public func attach(path: String, to id: String) throws -> AttachedFile {
        let attached = try store.attachFiles(at: [path], to: id, settings: settings)
        guard let file = attached.files.first else { throw AttachFileError.badInput("nothing attached from \(path)") }
        return file
    }

    public func isHere(_ file: AttachedFile) -> Bool {
        store.attachmentStore.contains(file.hash)
    }

    public func copy(_ file: AttachedFile, to path: String) throws {
        try store.attachmentStore.copy(file.hash, to: path)
    }
}
