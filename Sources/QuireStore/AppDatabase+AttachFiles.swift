import Foundation
import QuireCore

// MARK: - Attaching files by path

/// `quire attach` and the app's attach prompt: one call that checks the paths, copies the files
/// into the attachment store and adds them to the item, so both sync the same way.
extension AppDatabase {
    /// Attaches the files at `paths` to the item with full id `id`; returns the item as written
    /// and the references added. Every path is checked before anything is copied: one missing
    /// file, a directory or two files of one name change nothing.
    ///
    /// `keying` gives the new references their keys when the account is encrypted (the sync
    /// layer's `AttachmentKeys`), with `known`, the references the account already holds, read
    /// only if it asks; by default they go as they are (a plain account, or a locked device,
    /// whose files are given keys when they sync).
    @discardableResult
    public func attachFiles(
        at paths: [String], to id: String,
        keying: (_ files: [AttachedFile], _ known: () throws -> [AttachedFile]) throws -> [AttachedFile] = {
            files, _ in files
        }
    ) throws -> (item: Item, files: [AttachedFile]) {
        guard let item = try item(id) else { throw StoreError.notFound(id: id) }
        if item.deleted { throw StoreError.deleted(id: item.id, title: item.title) }
        var names = Set<String>()
        for path in paths {
            let name = try AttachFileError.check(path)
            guard names.insert(name).inserted else {
                throw AttachFileError.badInput(
                    "two files are named '\(name)': an item's attachments have one name each")
            }
        }
        let files = try paths.map { path in
            let stored: (hash: String, size: Int64)
            do {
                stored = try attachmentStore.add(fileAt: path)
            } catch let error as AttachmentStoreError {
                throw error == .missing(path)
                    ? AttachFileError.notFound(error.description) : .badInput(error.description)
            }
            let name = (path as NSString).lastPathComponent
            return AttachedFile(
                name: name, size: stored.size, mediaType: Attachments.mediaType(forName: name), hash: stored.hash)
        }
        let keyed = try keying(files) { try liveAttachments() + item.attachments }
        return (try attach(keyed, to: id), keyed)
    }
}

/// Why a path cannot be attached; one line each.
public enum AttachFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing is at the path.
    case notFound(String)
    /// Something is there, but not a readable file with a name a reference can hold.
    case badInput(String)

    public var description: String {
        switch self {
        case .notFound(let message), .badInput(let message): message
        }
    }

    /// The name the file at `path` would be attached under, or why it cannot be.
    static func check(_ path: String) throws(AttachFileError) -> String {
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound("no such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw .badInput("\(path) is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .badInput("cannot read \(path)") }
        let name = (path as NSString).lastPathComponent
        guard AttachedFile.isName(name) else { throw .badInput("'\(name)' cannot be a file's name here") }
        return name
    }
}
