import QuireCore

/// What the item view asks the runtime to do with attached files (`Effect.attachments`).
public enum AttachmentRequest: Hashable, Sendable {
    /// Read where each file attached to the item stands (`Message.attachmentStatesRead`).
    case readStates(itemID: String)
    /// Attach the file at `path` as typed (`~` and relative paths resolved by the runtime),
    /// through the same store call as `quire attach`, so it syncs.
    case attach(path: String, itemID: String)
    /// Open the file with `$QUIRE_OPEN` or `xdg-open`, beside the app; fetched first if needed.
    case open(AttachedFile)
    /// Save a copy at `path`; a file there is replaced only when `replacing` (asked first).
    case save(AttachedFile, to: String, replacing: Bool)

    /// The file the request is about, when it is about one.
    var file: AttachedFile? {
        switch self {
        case .open(let file), .save(let file, _, _): file
        case .readStates, .attach: nil
        }
    }
}

/// How an `AttachmentRequest` went (`Message.attachmentAnswered`).
public enum AttachmentAnswer: Hashable, Sendable {
    case attached(name: String, itemID: String)
    /// The opener started (it runs on beside the app).
    case opened(name: String, with: String)
    case saved(name: String, path: String)
    /// Something is at the path already: the person is asked before it is replaced.
    case exists(AttachedFile, path: String)
    /// Under way off the UI (a large file's copy takes a while), in the status bar's words
    /// ("Attaching scan.pdf…"); its answer follows.
    case underWay(String)
    /// The file is not on this device: it is being downloaded, and the request runs after.
    case fetching(AttachmentRequest)
    /// The download the request waited for finished: the request runs again.
    case fetched(AttachmentRequest)
    /// Why it could not be done, in one line; nothing changed.
    case failed(String)
}

/// Where each file attached to one item stands on this device, by content hash.
public struct AttachmentStates: Hashable, Sendable {
    public var itemID: String
    public var byHash: [String: AttachmentState]

    public init(itemID: String, byHash: [String: AttachmentState]) {
        self.itemID = itemID
        self.byHash = byHash
    }

    /// Some file is still on its way up or down: worth reading again as it moves.
    public var anyMoving: Bool { byHash.values.contains { $0.isMoving } }
}
