/// Where one attached file stands on this device, as lists and the item view show it.
///
/// Local bookkeeping only: it never syncs. Another device has its own state for the same file.
public enum AttachmentState: Hashable, Sendable {
    /// The bytes are here and the server has them (or no server is set up).
    case here
    /// The bytes are here; the upload has not started.
    case waitingToUpload
    /// The upload has sent this share of the file (0 to 100).
    case uploading(percent: Int)
    /// The reference arrived from another device; the bytes have not.
    case waitingToDownload
    /// A download has brought this share of the file (0 to 100); it goes on where it stopped.
    case downloading(percent: Int)
    /// The server refused the file (too large, over the quota): not retried.
    case refused(reason: String)

    /// `here`, `uploading 40%`, `downloading 5%`, `waiting to download`, `refused: the file is …`.
    public var description: String {
        switch self {
        case .here: "here"
        case .waitingToUpload: "here, not uploaded yet"
        case .uploading(let percent): "uploading \(percent)%"
        case .waitingToDownload: "waiting to download"
        case .downloading(let percent): "downloading \(percent)%"
        case .refused(let reason): "refused: \(reason)"
        }
    }

    /// One word for scripts (`quire attachments --json`).
    public var name: String {
        switch self {
        case .here: "here"
        case .waitingToUpload: "waiting-to-upload"
        case .uploading: "uploading"
        case .waitingToDownload: "waiting-to-download"
        case .downloading: "downloading"
        case .refused: "refused"
        }
    }

    /// Still on its way up or down: a view that shows it reads the state again as it moves.
    public var isMoving: Bool {
        switch self {
        case .here, .refused: false
        case .waitingToUpload, .uploading, .waitingToDownload, .downloading: true
        }
    }

    /// The share of `size` that `bytes` are, 0 to 100, rounded down (an empty file is whole).
    public static func percent(_ bytes: Int64, of size: Int64) -> Int {
        size > 0 ? Int(min(100, max(0, bytes) * 100 / size)) : 100
    }
}
