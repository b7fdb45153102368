import QuireCore
import QuireStore

// MARK: - Fetching one file now

/// A file a person asked for that this device does not hold (the `on-open` download policy, or
/// before the next round brought it): downloaded at once, through the same transport and
/// sealing as the rounds' downloads, so an encrypted account's chunks are opened the same way.
extension SyncEngine {
    /// Downloads `file` into the attachment store, going on from what a partial download holds.
    /// Its progress is the partial file's size (`AppDatabase.attachmentStates`).
    public func fetch(_ file: AttachedFile) async throws(AttachmentFetchError) {
        guard let attachments else { throw AttachmentFetchError("this device does not download attached files") }
        guard let transport = connect() else {
            throw AttachmentFetchError("\(file.name) is not on this device, and no remote is set to download it from")
        }
        guard let files = transport.files else {
            throw AttachmentFetchError("\(file.name) cannot be downloaded until the account's keys are unlocked")
        }
        var budget = Int.max
        do {
            _ = try await attachments.download(file, transport: files, budget: &budget, itemWorkWaiting: { false })
        } catch {
            throw AttachmentFetchError("cannot download \(file.name): \(error)")
        }
        guard attachments.store.attachmentStore.contains(file.hash) else {
            throw AttachmentFetchError(
                "\(file.name) is not on the server yet: the device that attached it has not uploaded it")
        }
    }
}

/// Why a file could not be fetched, in one line.
public struct AttachmentFetchError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
