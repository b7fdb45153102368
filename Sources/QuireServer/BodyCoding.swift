import CompressNIO
import Foundation
import NIOCore
import QuireProtocol

/// How a request body is coded (`Content-Encoding`): as is, or gzip-compressed.
///
/// The server says in every answer that it takes gzip (`Accept-Encoding: gzip`, RFC 7694), so
/// a client that has heard it can shrink a large push to a fraction of its JSON.
enum BodyCoding: Equatable {
    case identity
    case gzip
    case unsupported(String)

    init(header: String?) {
        let name = (header ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "", "identity": self = .identity
        case SyncProtocol.requestCoding, "x-gzip": self = .gzip
        default: self = .unsupported(name)
        }
    }

    /// The decompressed body; 413 when it would pass `limit` bytes (a small body may inflate to
    /// gigabytes), 400 when it is not gzip.
    static func gunzip(_ body: inout ByteBuffer, limit: Int) throws -> ByteBuffer {
        do {
            return try body.decompress(with: .gzip(), maxSize: limit)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw APIError.tooLarge("the request is larger than the limit of \(limit) bytes once decompressed")
        } catch {
            throw APIError.badRequest("the body says Content-Encoding gzip but is not valid gzip data")
        }
    }
}
