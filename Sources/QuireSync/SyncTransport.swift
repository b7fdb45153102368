import Foundation
import QuireCore
import QuireProtocol

/// The one gateway to the sync server: a whole round (`POST /v1/sync`) and snapshot pages.
///
/// The HTTP version (`HTTPSyncTransport`) is what the app uses; tests may put a fake behind
/// the same protocol to script failures.
public protocol SyncTransport: Sendable {
    func sync(_ request: SyncRequest) async throws(SyncTransportError) -> SyncExchange<SyncResponse>
    func snapshot(after: String?, limit: Int) async throws(SyncTransportError) -> SyncExchange<SnapshotPage>
    /// The transport attached files travel by, nil for one that moves none.
    var files: (any AttachmentTransport)? { get }
    /// What files' chunks become on the way (sealed for an encrypted account).
    var chunkSealer: any ChunkSealer { get }
    /// The fingerprint of the data keys items are opened with (`DataKeys.fingerprint`), nil for
    /// a transport that opens none: items that did not open under other keys are read again.
    var openingKeys: String? { get }
}

extension SyncTransport {
    /// A transport that moves files moves its own; any other moves none.
    public var files: (any AttachmentTransport)? { self as? any AttachmentTransport }
    /// A plain account's: chunks as they are.
    public var chunkSealer: any ChunkSealer { PlaintextChunkSealer() }
    /// A plain transport opens nothing.
    public var openingKeys: String? { nil }
}

/// An answer and what it cost on the wire, for the event log and the status screen.
public struct SyncExchange<Value: Sendable>: Sendable {
    public var value: Value
    public var bytesSent: Int
    public var bytesReceived: Int
    /// The items of the answer that arrived sealed and did not open here, left out of `value`
    /// (`SealingTransport`): the ledger records their versions with the rest of the answer.
    public var unreadable: [ItemUnreadable] = []

    public init(value: Value, bytesSent: Int, bytesReceived: Int) {
        self.value = value
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }
}

/// Why an exchange with the server failed, sorted the way sync logic needs it.
public enum SyncTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer: connection refused, DNS failure, timeout, connection dropped mid-answer.
    case unreachable(String)
    /// The server answered with an error status; `error` is its JSON body when it sent one.
    case status(Int, error: ErrorBody?, retryAfter: TimeInterval?)
    /// A 200 answer that is not the protocol's JSON.
    case invalidAnswer(String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "server unreachable: \(reason)"
        case .status(let code, let error, _):
            error.map { "the server answered \(code): \($0.message)" } ?? "the server answered \(code)"
        case .invalidAnswer(let reason): "the server's answer could not be read: \(reason)"
        }
    }

    /// What kind of failure this is, as the event log records it.
    public var failureKind: SyncFailureKind {
        switch self {
        case .unreachable: .unreachable
        case .status: .server
        case .invalidAnswer: .invalidAnswer
        }
    }

    /// The round outcome this failure means for the state machine.
    public var outcome: SyncMachine.RoundOutcome {
        switch self {
        case .unreachable(let reason): .networkError(reason)
        // The server answers `forbidden` for one thing only: plain values for an encrypted account.
        case .status(403, let error?, _) where error.error == .forbidden: .encryptionLocked
        case .status(let code, _, _) where code == 401 || code == 403: .authRefused(status: code)
        case .status(410, _, _): .resyncNeeded
        case .status(let code, _, let retryAfter): .serverError(status: code, retryAfter: retryAfter)
        case .invalidAnswer: .serverError(status: 200, retryAfter: nil)
        }
    }
}

/// Reads a `Retry-After` header: delay seconds, or an HTTP date (RFC 9110).
public enum RetryAfter {
    public static func seconds(from header: String?, now: Date) -> TimeInterval? {
        guard let header = header?.trimmingWhitespace(), !header.isEmpty else { return nil }
        if let seconds = Int(header) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
