import Foundation
import HTTPTypes
import Hummingbird
import QuireProtocol

/// An answer other than 200, with SPEC's error body.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var body: ErrorBody
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, body: ErrorBody(.badRequest, message))
    }
    static func unsupportedProtocol(_ version: Int) -> APIError {
        APIError(
            status: .badRequest,
            body: ErrorBody(
                .unsupportedProtocol,
                "protocol version \(version) is not supported; this server speaks version \(SyncProtocol.version)"))
    }
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, body: ErrorBody(.unauthorized, message), headers: [.wwwAuthenticate: "Bearer"])
    }
    static func tooLarge(_ message: String) -> APIError {
        APIError(status: .contentTooLarge, body: ErrorBody(.tooLarge, message))
    }
    static func unsupportedCoding(_ coding: String) -> APIError {
        APIError(
            status: .unsupportedMediaType,
            body: ErrorBody(
                .badRequest,
                "the body's Content-Encoding '\(coding)' is not supported; send it as is or gzip-compressed"),
            headers: [.acceptEncoding: SyncProtocol.requestCoding])
    }
    static func unsupportedTransferCoding(_ coding: String) -> APIError {
        APIError(
            status: .notImplemented,
            body: ErrorBody(
                .badRequest, "the Transfer-Encoding '\(coding)' is not supported; send the body as is or chunked"))
    }
    static func rateLimited(retryAfter seconds: Int, _ why: String = "too many requests") -> APIError {
        APIError(
            status: .tooManyRequests,
            body: ErrorBody(.rateLimited, "\(why); retry after \(seconds) s"),
            headers: [.retryAfter: String(seconds)])
    }
    /// 429 for a wait a rate limiter answered, in whole seconds (at least one).
    static func rateLimited(waiting wait: Duration, _ why: String = "too many requests") -> APIError {
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        return rateLimited(retryAfter: max(1, Int(seconds.rounded(.up))), why)
    }
    /// 403 (`forbidden`, which nothing else answers): the account is encrypted and the request
    /// carried plain values; the device must unlock before it syncs (and keeps what it had queued).
    static let encryptionRequired = APIError(
        status: .forbidden,
        body: ErrorBody(
            .forbidden,
            "this account is encrypted: unlock it on this device with 'quire encryption unlock' (nothing was written)"))
    /// 409: sealed values for an account the server holds no key ring for (a database restored
    /// from a backup older than the encryption): nothing was written, and the device keeps its
    /// queue rather than turning it into plain text.
    static let keyringMissing = APIError(
        status: .conflict,
        body: ErrorBody(
            .badRequest,
            "the server holds no key ring for this account (was it restored from an older backup?): "
                + "nothing was written; store the key ring again with 'quire encryption enable'"))
    /// 409: values sealed under a data key older than the one the account's key ring names
    /// current (a device that was away while another rotated the key): nothing was written.
    /// The body names the ring's version (`keyring`), from which the device learns the new key
    /// (`KeyLearning`) and seals its queue again, so nothing new lands under a key a lost device
    /// may hold.
    static func sealedUnderOldKey(ring: Int, currentKey: Int) -> APIError {
        APIError(
            status: .conflict,
            body: ErrorBody(
                .badRequest,
                "values sealed under an older data key than the account's current one (data key \(currentKey), "
                    + "key ring version \(ring)): nothing was written; learn the key from the ring and seal them again",
                keyring: ring))
    }
    /// 409: a key ring write named a version another device already replaced.
    static func keyringChanged(current: Int) -> APIError {
        APIError(
            status: .conflict,
            body: ErrorBody(
                .badRequest,
                "the key ring changed meanwhile (it is at version \(current)): fetch it again and redo the change"))
    }
    static func resync(_ reason: String) -> APIError {
        APIError(status: .gone, body: ErrorBody(.resyncRequired, reason))
    }
    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, body: ErrorBody(.notFound, message))
    }
    static func unavailable(_ message: String) -> APIError {
        APIError(status: .serviceUnavailable, body: ErrorBody(.internal, message))
    }
    static func `internal`(_ message: String) -> APIError {
        APIError(status: .internalServerError, body: ErrorBody(.internal, message))
    }

    /// The JSON response for this error.
    var response: Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let data = (try? WireJSON.encode(body)) ?? Data(#"{"error":"internal","message":"error"}"#.utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension DecodingError {
    /// One line saying where the JSON was wrong, with a JSON-path-like location.
    var readableMessage: String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the body" : "'\(text)'"
        }
        let message: String
        switch self {
        case .keyNotFound(let key, let context):
            message = "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            message = "wrong type at \(path(context.codingPath)): expected \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            message = "null at \(path(context.codingPath)) where \(Self.name(of: type)) is required"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                message = "the body is not valid JSON"
            } else if context.debugDescription.hasPrefix("Cannot initialize ") {
                // The decoder's own words name a Swift type, which means nothing to a client.
                message = "invalid value at \(path(context.codingPath))"
            } else {
                message = "invalid value at \(path(context.codingPath)): \(context.debugDescription)"
            }
        @unknown default:
            message = "the body does not match the request format"
        }
        return message.count > 300 ? String(message.prefix(300)) + "…" : message
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "a boolean"
        case is Double.Type: "a number"
        default:
            String(describing: type).contains("Array") ? "a list" : "an object"
        }
    }
}
