import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import QuireCore
import QuireCrypto
import QuireProtocol

/// The request context: Hummingbird's core storage, nothing else (the user travels as a
/// value through the handlers, never through shared state).
public struct QuireRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address (nil in in-process tests), for limits per client address.
    public var clientAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// The endpoints' logic: authenticate, bound, decode, call the store, encode.
///
/// Every failure leaves as an `APIError` with SPEC's error body; store failures become 503 so
/// that no client input, however broken, can produce a 500.
struct SyncService: Sendable {
    let store: any SyncStore
    let limits: RequestLimits
    let limiter: RateLimiter
    let metrics: ServerMetrics
    /// The open hint streams, told of every push that wrote something.
    let hub: HintHub
    let logger: Logger
    let now: @Sendable () -> Date

    // MARK: - Endpoints

    /// `POST /v1/sync`: push, then pull one page.
    func sync(_ request: Request) async throws -> Response {
        let owner = try await authenticate(request)
        let body = try await readBody(request)
        let sync = try decodeSyncRequest(body)
        let cursor = try validate(sync)
        let limit = sync.limit ?? limits.defaultPageLimit

        var results: [OpResult] = []
        var resultBytes = 0
        if !sync.ops.isEmpty {
            let planner = PushPlanner(now: now(), maxItemBytes: limits.maxItemBytes, quotaBytes: limits.userQuotaBytes)
            let plan = try await guarded {
                try await store.push(
                    user: owner.user, device: sync.device, ops: sync.ops, cursor: cursor, planner: planner)
            }
            metrics.record(plan.tally)
            (results, resultBytes) = Self.fitting(plan.results, within: limits.maxPageBytes)
            if !plan.writes.isEmpty { hub.publish(user: owner.user, seq: plan.head.seq) }
            logger.debug(
                "push",
                metadata: [
                    "user": "\(owner.name)", "device": "\(sync.device)", "ops": "\(sync.ops.count)",
                    "applied": "\(plan.tally.applied)", "conflicts": "\(plan.tally.conflicted)",
                ])
        }

        let page = try await guarded {
            try await store.pull(
                user: owner.user, after: cursor?.seq ?? 0, excluding: sync.device, limit: limit,
                maxBytes: max(1, limits.maxPageBytes - resultBytes))
        }
        if let cursor, let reason = cursor.resyncReason(head: page.head) { throw APIError.resync(reason) }
        let next = FeedCursor(seq: page.more ? (page.lastSeq ?? page.head.seq) : page.head.seq, epoch: page.head.epoch)
        metrics.sent(page.docs.count)

        let answer = SyncResponse.compactJSON(
            results: results, changeDocuments: page.docs, cursor: next.description, more: page.more,
            epoch: page.head.epoch, stateHash: page.head.stateHash,
            keyring: page.head.keyring > 0 ? page.head.keyring : nil)
        return json(ByteBuffer(bytes: answer))
    }

    /// The results as answered, with their item copies within `budget` bytes: a result whose
    /// copy does not fit is answered `skipped`, so the device sends the op again and its
    /// replay carries the copy in a later round (as `more` brings changes that did not fit).
    /// The first copy always fits, so every round makes progress. Also answers the bytes the
    /// copies take, which the page of changes leaves room for.
    static func fitting(_ results: [OpResult], within budget: Int) -> ([OpResult], Int) {
        var used = 0
        var fitted = results
        for index in fitted.indices {
            guard let current = fitted[index].current else { continue }
            let size = current.compactJSON().utf8.count
            if used > 0, used + size > budget {
                fitted[index] = .skipped(fitted[index].op)
            } else {
                used += size
            }
        }
        return (fitted, used)
    }

    /// `GET /v1/snapshot?after=ID&limit=N`: a page of items (tombstones too) ordered by id.
    func snapshot(_ request: Request) async throws -> Response {
        let owner = try await authenticate(request)
        let query = request.uri.queryParameters
        var after: String?
        // An empty `after` is a malformed one, as the document says: leave it out to start.
        if let value = query["after"] {
            guard UUIDv7Generator.isValid(String(value)) else {
                throw APIError.badRequest("'after' must be an item id (a UUID)")
            }
            after = String(value)
        }
        var limit = limits.defaultPageLimit
        if let value = query["limit"] {
            guard let number = Int(value), (1...limits.maxPageLimit).contains(number) else {
                throw APIError.badRequest("'limit' must be a whole number from 1 to \(limits.maxPageLimit)")
            }
            limit = number
        }
        let page = try await guarded {
            try await store.snapshot(user: owner.user, after: after, limit: limit, maxBytes: limits.maxPageBytes)
        }
        metrics.sent(page.docs.count)
        let cursor = FeedCursor(seq: page.head.seq, epoch: page.head.epoch)

        var out = ByteBuffer()
        out.writeString(#"{"items":["#)
        for (index, doc) in page.docs.enumerated() {
            if index > 0 { out.writeString(",") }
            out.writeString(doc)
        }
        out.writeString(#"],"next":"#)
        if page.more, let last = page.lastID {
            out.writeBytes(try WireJSON.encode(last))
        } else {
            out.writeString("null")
        }
        out.writeString(#","cursor":"#)
        out.writeBytes(try WireJSON.encode(cursor.description))
        if let lineage = page.lineage {
            out.writeString(#","lineage":"#)
            out.writeBytes(try WireJSON.encode(lineage.description))
        }
        if page.head.keyring > 0 { out.writeString(#","keyring":\#(page.head.keyring)"#) }
        out.writeString("}")
        return json(out)
    }

    /// `GET /v1/keyring`: the account's key ring and its version; 404 while it has none.
    func keyRing(_ request: Request) async throws -> Response {
        let owner = try await authenticate(request)
        guard let ring = try await guarded({ try await store.keyRing(user: owner.user) }) else {
            throw APIError.notFound("this account is not encrypted: it has no key ring")
        }
        return json(ByteBuffer(string: #"{"version":\#(ring.version),"keyring":\#(ring.json)}"#))
    }

    /// `PUT /v1/keyring`: stores a new version of the key ring, made from the version the body
    /// names; 409 when another device wrote one first. The server checks the ring's shape (it
    /// cannot open it) so that no device is ever handed a ring it cannot read.
    func storeKeyRing(_ request: Request) async throws -> Response {
        let owner = try await authenticate(request)
        let body = try await readBody(request)
        let document: KeyRingDocument
        do {
            document = try WireJSON.decoder().decode(KeyRingDocument.self, from: Data(body))
        } catch let error as DecodingError {
            throw APIError.badRequest("not a key ring: \(error.readableMessage)")
        } catch {
            throw APIError.badRequest("not a key ring: \(error)")
        }
        guard document.version >= 0 else { throw APIError.badRequest("'version' must not be negative") }
        if let problem = document.keyring.problem { throw APIError.badRequest("not a usable key ring: \(problem)") }
        let ringJSON = String(decoding: document.keyring.encoded(), as: UTF8.self)
        guard ringJSON.utf8.count <= Self.maxKeyRingBytes else {
            throw APIError.tooLarge(
                "the key ring is \(ringJSON.utf8.count) bytes; the limit is \(Self.maxKeyRingBytes)")
        }
        let version = try await guarded {
            try await store.storeKeyRing(
                user: owner.user, ring: KeyRingWrite(json: ringJSON, currentKey: document.keyring.currentKey),
                expected: document.version)
        }
        // Devices learn of the ring (and must unlock) at their next round: hint them now.
        let seq = try await guarded { try await store.feedSeq(user: owner.user) }
        hub.publish(user: owner.user, seq: seq)
        logger.info("key ring stored", metadata: ["user": "\(owner.name)", "version": "\(version)"])
        return json(ByteBuffer(string: #"{"version":\#(version)}"#))
    }

    /// A key ring holds a few wrapped keys; thousands of rotations stay far below this.
    static let maxKeyRingBytes = 256 << 10

    /// `GET /healthz`: 200 when the store answers.
    func health() async throws -> Response {
        try await guarded { try await store.ping() }
        return json(ByteBuffer(string: #"{"status":"ok"}"#))
    }

    /// `GET /metrics`: Prometheus text.
    func metricsText() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text())))
    }

    // MARK: - Steps

    /// The token's owner; 401 when the header is missing or the token unknown or revoked,
    /// 429 when the token is over its rate.
    func authenticate(_ request: Request) async throws -> TokenOwner {
        guard let token = Tokens.bearer(request.headers[.authorization]) else {
            throw APIError.unauthorized("missing or malformed 'Authorization: Bearer TOKEN' header")
        }
        let hash = Tokens.hash(token)
        guard let owner = try await guarded({ try await store.tokenOwner(tokenHash: hash) }),
            Tokens.constantTimeEqual(owner.tokenHash, hash)
        else { throw APIError.unauthorized("the token is not valid (unknown or revoked); sign in again") }
        if let wait = limiter.take(hash) { throw APIError.rateLimited(waiting: wait) }
        return owner
    }

    /// The body as bytes, bounded; 413 past the limit. A gzip-compressed body (see
    /// `SyncProtocol.requestCoding`) is bounded both as sent and once decompressed.
    func readBody(_ request: Request) async throws -> [UInt8] {
        let limit = limits.maxRequestBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIError.tooLarge("the request is \(declared) bytes; the limit is \(limit) bytes")
        }
        let coding = BodyCoding(header: request.headers[.contentEncoding])
        if case .unsupported(let name) = coding { throw APIError.unsupportedCoding(name) }
        var buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the request is larger than the limit of \(limit) bytes")
        } catch {
            // The client stopped sending (or closed its side) before the body's declared end.
            throw APIError.badRequest("the body ended before its declared length")
        }
        if coding == .gzip { buffer = try BodyCoding.gunzip(&buffer, limit: limit) }
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    /// The request, checked for UTF-8, JSON shape and protocol version, in that order.
    func decodeSyncRequest(_ bytes: [UInt8]) throws -> SyncRequest {
        guard !bytes.isEmpty else { throw APIError.badRequest("the body is empty; send a JSON sync request") }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw APIError.badRequest("the body is not valid UTF-8")
        }
        // Quire's own clients write the compact shape, read here without JSONDecoder.
        if let fast = bytes.withUnsafeBufferPointer(SyncRequest.readCompact) { return fast }
        let data = Data(bytes)
        let decoder = WireJSON.decoder()
        if let key = UnknownKeyProbe.first(in: data, decoder: decoder) {
            throw APIError.badRequest("unknown key \(key); see openapi.yaml for the request's shape")
        }
        do {
            return try decoder.decode(SyncRequest.self, from: data)
        } catch let error as UnsupportedProtocolVersion {
            throw APIError.unsupportedProtocol(error.version)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let field = NumberProbe.misfit(in: data, decoder: decoder)
            {
                throw APIError.badRequest("\(field) must be a whole number in range")
            }
            throw APIError.badRequest(error.readableMessage)
        }
    }

    /// Checks what JSON types cannot: ids, ranges and sizes. Returns the parsed cursor.
    func validate(_ sync: SyncRequest) throws -> FeedCursor? {
        guard UUIDv7Generator.isValid(sync.device) else { throw APIError.badRequest("'device' must be a UUID") }
        if let limit = sync.limit, !(1...limits.maxPageLimit).contains(limit) {
            throw APIError.badRequest("'limit' must be from 1 to \(limits.maxPageLimit), not \(limit)")
        }
        guard sync.ops.count <= limits.maxOpsPerBatch else {
            throw APIError.tooLarge("the batch has \(sync.ops.count) ops; the limit is \(limits.maxOpsPerBatch)")
        }
        for (index, op) in sync.ops.enumerated() {
            guard UUIDv7Generator.isValid(op.id) else { throw APIError.badRequest("'ops[\(index)].op' must be a UUID") }
            guard UUIDv7Generator.isValid(op.item) else {
                throw APIError.badRequest("'ops[\(index)].item' must be a UUID")
            }
            guard op.baseRev >= 0 else { throw APIError.badRequest("'ops[\(index)].baseRev' must not be negative") }
            var size = 0
            for (field, change) in op.fields ?? [:] {
                switch change.to {
                case .string(let text):
                    size += text.utf8.count
                    if field == .body, text.utf8.count > Validation.maxBodyBytes {
                        throw APIError.tooLarge(
                            "'ops[\(index)]' sets a body of \(text.utf8.count) bytes; the limit is \(Validation.maxBodyBytes) bytes"
                        )
                    }
                case .strings(let list): size += list.reduce(0) { $0 + $1.utf8.count }
                case .sealed(let value):
                    // Sealing grows a value by a third (base64) and a little: the limit grows alike.
                    size += value.text.utf8.count * 3 / 4
                    guard value.isWellFormed else {
                        throw APIError.badRequest("'ops[\(index)].fields.\(field.rawValue)' is not a sealed value")
                    }
                default: break
                }
            }
            guard size <= limits.maxItemBytes else {
                throw APIError.tooLarge(
                    "'ops[\(index)]' carries \(size) bytes of item; the limit is \(limits.maxItemBytes) bytes")
            }
        }
        guard let text = sync.cursor else { return nil }
        guard let cursor = FeedCursor(text) else {
            throw APIError.badRequest(
                "'cursor' is not one this server wrote; send null or the cursor of the last answer")
        }
        return cursor
    }

    /// Runs a store call, turning store failures into 503 (counted and logged) and resync
    /// signals into 410.
    func guarded<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch let error as ResyncRequired {
            throw APIError.resync(error.reason)
        } catch let error as KeyRingVersionConflict {
            throw APIError.keyringChanged(current: error.current)
        } catch {
            metrics.storeError()
            logger.error("store error", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError.unavailable("the server's store is unavailable; retry later")
        }
    }

    private func json(_ buffer: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
    }
}

/// Finds an integer field holding a number that is not a whole number or does not fit 64 bits.
///
/// The JSON decoder reports such numbers as "not valid JSON" without saying where; this reads
/// the integer fields as doubles to name the culprit in the answer.
private struct NumberProbe: Decodable {
    var misfits: [String] = []

    private enum Keys: String, CodingKey { case `protocol`, limit, ops, baseRev }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func check(_ value: Double?, _ name: String) {
            guard let value else { return }
            if value.rounded() != value || abs(value) >= 9.2e18 { misfits.append(name) }
        }
        check(try? container.decode(Double.self, forKey: .protocol), "'protocol'")
        check(try? container.decode(Double.self, forKey: .limit), "'limit'")
        if var ops = try? container.nestedUnkeyedContainer(forKey: .ops) {
            var index = 0
            while !ops.isAtEnd {
                if let op = try? ops.nestedContainer(keyedBy: Keys.self) {
                    check(try? op.decode(Double.self, forKey: .baseRev), "'ops[\(index)].baseRev'")
                } else {
                    _ = try? ops.decodeNil()
                    if !ops.isAtEnd, (try? ops.decode(JSONSkip.self)) == nil { break }
                }
                index += 1
            }
        }
    }

    /// The first misfit field's name, or nil (then the body really is not valid JSON).
    static func misfit(in data: Data, decoder: JSONDecoder) -> String? {
        (try? decoder.decode(NumberProbe.self, from: data))?.misfits.first
    }
}

/// Finds a key the OpenAPI document does not allow (`additionalProperties: false`) in an op,
/// its `fields` or a field change; the decoder alone would skip it silently. The request's
/// top level stays open to keys a later protocol adds.
private struct UnknownKeyProbe: Decodable {
    var unknown: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let opKeys: Set = ["op", "item", "kind", "baseRev", "fields", "baseVersion", "basis"]
    private static let fieldNames = Set(Field.allCases.map(\.rawValue))
    private static let changeKeys: Set = ["from", "to"]

    init(from decoder: any Decoder) throws {
        guard let top = try? decoder.container(keyedBy: Key.self),
            var ops = try? top.nestedUnkeyedContainer(forKey: Key(stringValue: "ops"))
        else { return }
        var index = 0
        while !ops.isAtEnd, unknown == nil {
            guard let op = try? ops.nestedContainer(keyedBy: Key.self) else { return }
            unknown = Self.stray(in: op, allowed: Self.opKeys, at: "ops[\(index)]")
            if unknown == nil,
                let fields = try? op.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "fields"))
            {
                unknown = Self.stray(in: fields, allowed: Self.fieldNames, at: "ops[\(index)].fields")
                for field in fields.allKeys where unknown == nil {
                    if let change = try? fields.nestedContainer(keyedBy: Key.self, forKey: field) {
                        unknown = Self.stray(
                            in: change, allowed: Self.changeKeys, at: "ops[\(index)].fields.\(field.stringValue)")
                    }
                }
            }
            index += 1
        }
    }

    private static func stray(in container: KeyedDecodingContainer<Key>, allowed: Set<String>, at path: String)
        -> String?
    {
        container.allKeys.first { !allowed.contains($0.stringValue) }.map { "'\(path).\($0.stringValue)'" }
    }

    /// The first unknown key's path, or nil.
    static func first(in data: Data, decoder: JSONDecoder) -> String? {
        (try? decoder.decode(UnknownKeyProbe.self, from: data))?.unknown
    }
}

/// Decodes and discards any JSON value.
private struct JSONSkip: Decodable {
    init(from decoder: any Decoder) throws {}
}
