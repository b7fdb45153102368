import Foundation
import QuireCore

/// The sync request, result and item written by hand, and read back by hand.
///
/// A push of 10,000 ops spent more time in `JSONEncoder` and `JSONDecoder` than in SQLite, on
/// both ends. The writers below make the same JSON the `Codable` conformances make, without
/// whitespace and keys in a fixed order. The server reads a request in exactly that shape
/// with `readCompact(_:)`; a request in any other shape (spaces, other key order, escapes the
/// writer does not use, unknown keys) returns nil there and goes through `JSONDecoder`, which
/// also gives the precise error for a malformed one. The client reads answers the same way:
/// `SyncResponse.readCompact(_:)` takes what a Quire server writes and leaves anything else
/// to `JSONDecoder`.
extension SyncRequest {
    /// The request as compact JSON: `{"protocol":1,"device":…,"cursor":…,"limit":…,"ops":[…]}`.
    public func compactJSON() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + ops.count * 200)
        CompactJSON.appendRaw("{\"protocol\":", to: &bytes)
        CompactJSON.appendInteger(protocolVersion, to: &bytes)
        CompactJSON.appendRaw(",\"device\":", to: &bytes)
        CompactJSON.appendString(device, to: &bytes)
        CompactJSON.appendRaw(",\"cursor\":", to: &bytes)
        if let cursor {
            CompactJSON.appendString(cursor, to: &bytes)
        } else {
            CompactJSON.appendRaw("null", to: &bytes)
        }
        if let limit {
            CompactJSON.appendRaw(",\"limit\":", to: &bytes)
            CompactJSON.appendInteger(limit, to: &bytes)
        }
        CompactJSON.appendRaw(",\"ops\":[", to: &bytes)
        for (index, op) in ops.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            op.appendCompactJSON(to: &bytes)
        }
        CompactJSON.appendRaw("]}", to: &bytes)
        return bytes
    }

    /// Reads a request written by `compactJSON()`; nil for anything else (see above).
    public static func readCompact(_ bytes: UnsafeBufferPointer<UInt8>) -> SyncRequest? {
        var reader = CompactJSONReader(bytes)
        guard reader.take(UInt8(ascii: "{")), reader.key("protocol"), let version = reader.integer(),
            version == SyncProtocol.version,
            reader.take(UInt8(ascii: ",")), reader.key("device"), let device = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("cursor")
        else { return nil }
        var cursor: String?
        if !reader.literal("null") {
            guard let text = reader.string() else { return nil }
            cursor = text
        }
        guard reader.take(UInt8(ascii: ",")) else { return nil }
        var limit: Int?
        if reader.key("limit") {
            guard let number = reader.integer(), reader.take(UInt8(ascii: ",")) else { return nil }
            limit = number
        }
        guard reader.key("ops"), let ops = reader.array(Op.readCompact),
            reader.take(UInt8(ascii: "}")), reader.isAtEnd
        else { return nil }
        return SyncRequest(protocolVersion: version, device: device, cursor: cursor, limit: limit, ops: ops)
    }
}

extension Op {
    /// `{"op":…,"item":…,"kind":…,"baseRev":…,"fields":{…}}`; a delete has no `fields`.
    public func appendCompactJSON(to bytes: inout [UInt8]) {
        CompactJSON.appendRaw("{\"op\":", to: &bytes)
        CompactJSON.appendString(id, to: &bytes)
        CompactJSON.appendRaw(",\"item\":", to: &bytes)
        CompactJSON.appendString(item, to: &bytes)
        CompactJSON.appendRaw(",\"kind\":", to: &bytes)
        CompactJSON.appendString(kind.rawValue, to: &bytes)
        CompactJSON.appendRaw(",\"baseRev\":", to: &bytes)
        CompactJSON.appendInteger(baseRev, to: &bytes)
        if let baseVersion {
            CompactJSON.appendRaw(",\"baseVersion\":", to: &bytes)
            CompactJSON.appendString(baseVersion.description, to: &bytes)
        }
        if let basis {
            CompactJSON.appendRaw(",\"basis\":", to: &bytes)
            CompactJSON.appendString(basis.description, to: &bytes)
        }
        if let fields {
            CompactJSON.appendRaw(",\"fields\":", to: &bytes)
            CompactJSON.appendFieldChanges(fields, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    fileprivate static func readCompact(_ reader: inout CompactJSONReader) -> Op? {
        guard reader.take(UInt8(ascii: "{")), reader.key("op"), let id = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("item"), let item = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("kind"), let kindText = reader.string(),
            let kind = OpKind(rawValue: kindText),
            reader.take(UInt8(ascii: ",")), reader.key("baseRev"), let baseRev = reader.integer()
        else { return nil }
        var fields: [Field: FieldChange]?
        var baseVersion: ServerVersion?
        var basis: ServerVersion?
        while reader.take(UInt8(ascii: ",")) {
            if reader.key("baseVersion") {
                guard let text = reader.string(), let parsed = ServerVersion(text) else { return nil }
                baseVersion = parsed
            } else if reader.key("basis") {
                guard let text = reader.string(), let parsed = ServerVersion(text) else { return nil }
                basis = parsed
            } else if reader.key("fields") {
                guard let changes = reader.fieldChanges() else { return nil }
                fields = changes
            } else {
                return nil
            }
        }
        guard reader.take(UInt8(ascii: "}")) else { return nil }
        return Op(
            id: id, item: item, kind: kind, baseRev: baseRev, fields: fields, baseVersion: baseVersion, basis: basis)
    }
}

extension ChangeItem {
    /// The item as the wire carries it, every key present, in SPEC's order.
    public func appendCompactJSON(to bytes: inout [UInt8]) {
        CompactJSON.appendRaw("{\"id\":", to: &bytes)
        CompactJSON.appendString(id, to: &bytes)
        CompactJSON.appendRaw(",\"rev\":", to: &bytes)
        CompactJSON.appendInteger(rev, to: &bytes)
        CompactJSON.appendRaw(",\"deleted\":", to: &bytes)
        CompactJSON.appendValue(.bool(deleted), to: &bytes)
        if let sealed {
            appendSealed(sealed, to: &bytes)
        } else {
            appendPlainFields(to: &bytes)
        }
        CompactJSON.appendRaw(",\"createdAt\":\"", to: &bytes)
        Timestamp.append(createdAt, to: &bytes)
        CompactJSON.appendRaw("\",\"updatedAt\":\"", to: &bytes)
        Timestamp.append(updatedAt, to: &bytes)
        CompactJSON.appendRaw("\",\"doneAt\":", to: &bytes)
        CompactJSON.appendTime(doneAt, to: &bytes)
        if let version {
            CompactJSON.appendRaw(",\"version\":", to: &bytes)
            CompactJSON.appendString(version.description, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"sealed":{"kind":{"sealed":…,"mac":…},…}`, fields in `Field` order.
    private func appendSealed(_ sealed: [Field: SealedValue], to bytes: inout [UInt8]) {
        CompactJSON.appendRaw(",\"sealed\":{", to: &bytes)
        var first = true
        for field in Field.allCases {
            guard let value = sealed[field] else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            CompactJSON.appendString(field.rawValue, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            CompactJSON.appendValue(.sealed(value), to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private func appendPlainFields(to bytes: inout [UInt8]) {
        CompactJSON.appendRaw(",\"kind\":", to: &bytes)
        CompactJSON.appendString(kind.rawValue, to: &bytes)
        CompactJSON.appendRaw(",\"title\":", to: &bytes)
        CompactJSON.appendString(title, to: &bytes)
        CompactJSON.appendRaw(",\"body\":", to: &bytes)
        CompactJSON.appendString(body, to: &bytes)
        CompactJSON.appendRaw(",\"tags\":", to: &bytes)
        CompactJSON.appendStrings(tags, to: &bytes)
        CompactJSON.appendRaw(",\"done\":", to: &bytes)
        CompactJSON.appendValue(.bool(done), to: &bytes)
        CompactJSON.appendRaw(",\"due\":", to: &bytes)
        if let due {
            CompactJSON.appendString(due.description, to: &bytes)
        } else {
            CompactJSON.appendRaw("null", to: &bytes)
        }
        CompactJSON.appendRaw(",\"priority\":", to: &bytes)
        CompactJSON.appendString(priority.rawValue, to: &bytes)
        CompactJSON.appendRaw(",\"pinned\":", to: &bytes)
        CompactJSON.appendValue(.bool(pinned), to: &bytes)
        CompactJSON.appendOptional("project", project, to: &bytes)
        CompactJSON.appendOptional("recur", recur?.description, to: &bytes)
        CompactJSON.appendOptional("wait", wait?.description, to: &bytes)
        CompactJSON.appendOptional("scheduled", scheduled?.description, to: &bytes)
        if !attachments.isEmpty {
            CompactJSON.appendRaw(",\"attachments\":", to: &bytes)
            CompactJSON.appendStrings(attachments.map(\.wireText), to: &bytes)
        }
    }

    /// `appendCompactJSON(to:)` as text.
    public func compactJSON() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(200 + title.utf8.count + body.utf8.count + (sealed?.count ?? 0) * 120)
        appendCompactJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension OpResult {
    /// `{"op":…,"status":…}` with `rev`, `current` or `reason` when present, as `Codable` writes it.
    public func appendCompactJSON(to bytes: inout [UInt8]) {
        CompactJSON.appendRaw("{\"op\":", to: &bytes)
        CompactJSON.appendString(op, to: &bytes)
        CompactJSON.appendRaw(",\"status\":", to: &bytes)
        CompactJSON.appendString(status.rawValue, to: &bytes)
        if let rev {
            CompactJSON.appendRaw(",\"rev\":", to: &bytes)
            CompactJSON.appendInteger(rev, to: &bytes)
        }
        if let version {
            CompactJSON.appendRaw(",\"version\":", to: &bytes)
            CompactJSON.appendString(version.description, to: &bytes)
        }
        if let createdAt {
            CompactJSON.appendRaw(",\"createdAt\":\"", to: &bytes)
            Timestamp.append(createdAt, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        if let updatedAt {
            CompactJSON.appendRaw(",\"updatedAt\":\"", to: &bytes)
            Timestamp.append(updatedAt, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        if let doneAt {
            CompactJSON.appendRaw(",\"doneAt\":\"", to: &bytes)
            Timestamp.append(doneAt, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        if let current {
            CompactJSON.appendRaw(",\"current\":", to: &bytes)
            current.appendCompactJSON(to: &bytes)
        }
        if let reason {
            CompactJSON.appendRaw(",\"reason\":", to: &bytes)
            CompactJSON.appendString(reason, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `appendCompactJSON(to:)` as text.
    public func compactJSON() -> String {
        var bytes: [UInt8] = []
        appendCompactJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SyncResponse {
    /// Writes an answer in the shape `readCompact` reads, from changes that are JSON already
    /// (the server keeps each item's JSON as it sends it, so a pull never encodes an item).
    public static func compactJSON(
        results: [OpResult], changeDocuments: [String], cursor: String, more: Bool, epoch: String, stateHash: String,
        keyring: Int? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + results.count * 64 + changeDocuments.reduce(0) { $0 + $1.utf8.count + 1 })
        CompactJSON.appendRaw(#"{"results":["#, to: &bytes)
        for (index, result) in results.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            result.appendCompactJSON(to: &bytes)
        }
        CompactJSON.appendRaw(#"],"changes":["#, to: &bytes)
        for (index, document) in changeDocuments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: document.utf8)
        }
        CompactJSON.appendRaw(#"],"cursor":"#, to: &bytes)
        CompactJSON.appendString(cursor, to: &bytes)
        CompactJSON.appendRaw(#","more":"#, to: &bytes)
        CompactJSON.appendRaw(more ? "true" : "false", to: &bytes)
        CompactJSON.appendRaw(#","epoch":"#, to: &bytes)
        CompactJSON.appendString(epoch, to: &bytes)
        CompactJSON.appendRaw(#","stateHash":"#, to: &bytes)
        CompactJSON.appendString(stateHash, to: &bytes)
        if let keyring {
            CompactJSON.appendRaw(#","keyring":"#, to: &bytes)
            CompactJSON.appendInteger(keyring, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Reads an answer in the shape a Quire server writes (keys in `SyncResponse`'s order,
    /// items and results as `appendCompactJSON` writes them); nil for anything else.
    public static func readCompact(_ bytes: UnsafeBufferPointer<UInt8>) -> SyncResponse? {
        var reader = CompactJSONReader(bytes)
        guard reader.take(UInt8(ascii: "{")), reader.key("results"), let results = reader.array(OpResult.readCompact),
            reader.take(UInt8(ascii: ",")), reader.key("changes"), let changes = reader.array(ChangeItem.readCompact),
            reader.take(UInt8(ascii: ",")), reader.key("cursor"), let cursor = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("more"), let more = reader.bool(),
            reader.take(UInt8(ascii: ",")), reader.key("epoch"), let epoch = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("stateHash"), let stateHash = reader.string()
        else { return nil }
        var keyring: Int?
        if reader.take(UInt8(ascii: ",")) {
            guard reader.key("keyring"), let version = reader.integer() else { return nil }
            keyring = version
        }
        guard reader.take(UInt8(ascii: "}")), reader.isAtEnd else { return nil }
        return SyncResponse(
            results: results, changes: changes, cursor: cursor, more: more, epoch: epoch, stateHash: stateHash,
            keyring: keyring)
    }
}

extension OpResult {
    fileprivate static func readCompact(_ reader: inout CompactJSONReader) -> OpResult? {
        guard reader.take(UInt8(ascii: "{")), reader.key("op"), let op = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("status"), let statusText = reader.string(),
            let status = OpStatus(rawValue: statusText)
        else { return nil }
        var result = OpResult(op: op, status: status)
        while reader.take(UInt8(ascii: ",")) {
            if reader.key("rev") {
                guard let rev = reader.integer() else { return nil }
                result.rev = rev
            } else if reader.key("version") {
                guard let text = reader.string(), let version = ServerVersion(text) else { return nil }
                result.version = version
            } else if reader.key("createdAt") {
                guard let time = reader.string().flatMap(Timestamp.date(from:)) else { return nil }
                result.createdAt = time
            } else if reader.key("updatedAt") {
                guard let time = reader.string().flatMap(Timestamp.date(from:)) else { return nil }
                result.updatedAt = time
            } else if reader.key("doneAt") {
                guard let time = reader.string().flatMap(Timestamp.date(from:)) else { return nil }
                result.doneAt = time
            } else if reader.key("current") {
                guard let current = ChangeItem.readCompact(&reader) else { return nil }
                result.current = current
            } else if reader.key("reason") {
                guard let reason = reader.string() else { return nil }
                result.reason = reason
            } else {
                return nil
            }
        }
        return reader.take(UInt8(ascii: "}")) ? result : nil
    }
}

extension ChangeItem {
    fileprivate static func readCompact(_ reader: inout CompactJSONReader) -> ChangeItem? {
        guard reader.take(UInt8(ascii: "{")), reader.key("id"), let id = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("rev"), let rev = reader.integer(),
            reader.take(UInt8(ascii: ",")), reader.key("deleted"), let deleted = reader.bool(),
            reader.take(UInt8(ascii: ","))
        else { return nil }
        if reader.key("sealed") {
            guard let sealed = reader.sealedFields(), reader.take(UInt8(ascii: ",")) else { return nil }
            var item = ChangeItem(
                id: id, rev: rev, deleted: deleted, title: "", createdAt: .distantPast, updatedAt: .distantPast,
                sealed: sealed)
            return readCompactTimes(&reader, into: &item) ? item : nil
        }
        guard reader.key("kind"), let kindText = reader.string(),
            let kind = ItemKind(rawValue: kindText),
            reader.take(UInt8(ascii: ",")), reader.key("title"), let title = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("body"), let body = reader.string(),
            reader.take(UInt8(ascii: ",")), reader.key("tags"), case .strings(let tags)? = reader.value(),
            reader.take(UInt8(ascii: ",")), reader.key("done"), let done = reader.bool(),
            reader.take(UInt8(ascii: ",")), reader.key("due")
        else { return nil }
        var due: Day?
        if !reader.literal("null") {
            guard let text = reader.string(), let day = Day(text) else { return nil }
            due = day
        }
        guard reader.take(UInt8(ascii: ",")), reader.key("priority"), let priorityText = reader.string(),
            let priority = Priority(rawValue: priorityText),
            reader.take(UInt8(ascii: ",")), reader.key("pinned"), let pinned = reader.bool(),
            reader.take(UInt8(ascii: ","))
        else { return nil }
        // What a server stored before projects (or recurrence, wait and scheduled) existed has
        // no such key: none.
        var project: String?
        var recurText: String?
        var waitText: String?
        var scheduledText: String?
        guard reader.optionalText("project", into: &project), reader.optionalText("recur", into: &recurText),
            reader.optionalText("wait", into: &waitText), reader.optionalText("scheduled", into: &scheduledText)
        else { return nil }
        var recur: Recurrence?
        if let recurText {
            guard let rule = Recurrence(recurText) else { return nil }
            recur = rule
        }
        let wait = waitText.flatMap(Day.init)
        let scheduled = scheduledText.flatMap(Day.init)
        guard (waitText == nil) == (wait == nil), (scheduledText == nil) == (scheduled == nil) else { return nil }
        // No key: no files.
        var attachments: [AttachedFile] = []
        if reader.key("attachments") {
            guard case .strings(let texts)? = reader.value(), let parsed = try? Attachments.parse(texts),
                reader.take(UInt8(ascii: ","))
            else { return nil }
            attachments = parsed
        }
        var item = ChangeItem(
            id: id, rev: rev, deleted: deleted, kind: kind, title: title, body: body, tags: tags, done: done, due: due,
            priority: priority, pinned: pinned, project: project, recur: recur, wait: wait, scheduled: scheduled,
            attachments: attachments, createdAt: .distantPast, updatedAt: .distantPast)
        return readCompactTimes(&reader, into: &item) ? item : nil
    }

    /// The keys every item ends with: `createdAt`, `updatedAt`, then `doneAt` and `version`
    /// when present, and the closing brace.
    private static func readCompactTimes(_ reader: inout CompactJSONReader, into item: inout ChangeItem) -> Bool {
        guard reader.key("createdAt"),
            let created = reader.string().flatMap(Timestamp.date(from:)),
            reader.take(UInt8(ascii: ",")), reader.key("updatedAt"),
            let updated = reader.string().flatMap(Timestamp.date(from:))
        else { return false }
        item.createdAt = created
        item.updatedAt = updated
        while reader.take(UInt8(ascii: ",")) {
            if reader.key("doneAt") {
                guard let time = reader.optionalTime() else { return false }
                item.doneAt = time
            } else if reader.key("version") {
                guard let text = reader.string(), let parsed = ServerVersion(text) else { return false }
                item.version = parsed
            } else {
                return false
            }
        }
        return reader.take(UInt8(ascii: "}"))
    }
}

extension CompactJSONReader {
    /// `{"kind":{"sealed":…,"mac":…},…}`: a sealed item's fields.
    fileprivate mutating func sealedFields() -> [Field: SealedValue]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var fields: [Field: SealedValue] = [:]
        if take(UInt8(ascii: "}")) { return fields }
        repeat {
            guard let name = string(), let field = Field(rawValue: name), fields[field] == nil,
                take(UInt8(ascii: ":")), case .sealed(let value)? = self.value()
            else { return nil }
            fields[field] = value
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? fields : nil
    }

    /// Reads `"key":` with a string or null and the comma after it into `value`; an absent key
    /// (an item stored before the field existed) leaves it nil. False when the text is not that.
    fileprivate mutating func optionalText(_ name: String, into value: inout String?) -> Bool {
        guard key(name) else { return true }
        if !literal("null") {
            guard let text = string() else { return false }
            value = text
        }
        return take(UInt8(ascii: ","))
    }
}

extension CompactJSON {
    /// `,"key":` and the text, or null.
    static func appendOptional(_ key: StaticString, _ text: String?, to bytes: inout [UInt8]) {
        appendRaw(",\"", to: &bytes)
        appendRaw(key, to: &bytes)
        appendRaw("\":", to: &bytes)
        if let text { appendString(text, to: &bytes) } else { appendRaw("null", to: &bytes) }
    }

    /// An RFC 3339 time in quotes, or `null`.
    static func appendTime(_ time: Date?, to bytes: inout [UInt8]) {
        guard let time else {
            appendRaw("null", to: &bytes)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        Timestamp.append(time, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}

extension CompactJSONReader {
    /// A time or `null`: `.some(nil)` for null, nil when the value is neither.
    fileprivate mutating func optionalTime() -> Date?? {
        if literal("null") { return .some(nil) }
        guard let time = string().flatMap(Timestamp.date(from:)) else { return nil }
        return .some(time)
    }
}
