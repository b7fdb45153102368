/// A file attached to an item: a reference to content-addressed bytes that travel apart from
/// the item (SPEC "Notes, tasks, links and attachments").
///
/// The reference is what ordinary ops carry and what merges as a set: two devices that attach
/// different files both keep theirs, and one that detaches a file removes only that one. The
/// bytes live in the local attachment store and on the server in chunks, both by `hash`.
public struct AttachedFile: Hashable, Sendable, Comparable {
    /// The file's name as attached (its last path component), one line.
    public var name: String
    /// The file's size in bytes.
    public var size: Int64
    /// The media type guessed from the name when attached (`application/pdf`), for openers.
    public var mediaType: String
    /// Lowercase hex SHA-256 of the file's bytes: its address in the local store.
    public var hash: String
    /// The file's own key, wrapped by the account's data key, when encryption is on; nil for a
    /// plaintext account. Text without spaces (`f1.<key id>.<base64url>`, QuireCrypto's
    /// `FileCipher`); the reference travels sealed with its item, so only the account's
    /// devices ever see it.
    public var wrappedKey: String?

    public init(name: String, size: Int64, mediaType: String, hash: String, wrappedKey: String? = nil) {
        self.name = name
        self.size = size
        self.mediaType = mediaType
        self.hash = hash
        self.wrappedKey = wrappedKey
    }

    /// Sorted by name, then by content, so a set of references has one order everywhere.
    public static func < (lhs: AttachedFile, rhs: AttachedFile) -> Bool {
        if lhs.name != rhs.name { return Array(lhs.name.utf8).lexicographicallyPrecedes(rhs.name.utf8) }
        return lhs.wireText.utf8.lexicographicallyPrecedes(rhs.wireText.utf8)
    }
}

// MARK: - One line of text

extension AttachedFile {
    /// The reference as ops and changes carry it, one string per file:
    /// `HASH SIZE MEDIA-TYPE KEY NAME`, with `-` for no key. The name comes last so it may hold
    /// spaces; the other parts never do. A string keeps the set merge of tags for attachments
    /// and keeps every value of the wire a JSON string, bool or list of strings.
    public var wireText: String {
        "\(hash) \(size) \(mediaType) \(wrappedKey ?? "-") \(name)"
    }

    /// Reads `wireText`; nil for anything else (a bad hash, size or name).
    public init?(wireText text: String) {
        let parts = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let size = Int64(parts[1]), size >= 0 else { return nil }
        let hash = String(parts[0])
        let name = String(parts[4])
        guard AttachedFile.isHash(hash), !parts[2].isEmpty, !parts[3].isEmpty, AttachedFile.isName(name) else {
            return nil
        }
        self.init(
            name: name, size: size, mediaType: String(parts[2]), hash: hash,
            wrappedKey: parts[3] == "-" ? nil : String(parts[3]))
    }

    /// 64 lowercase hex digits.
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A name fit for a reference: not empty, one line, no slash, at most 255 bytes (a file name).
    public static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text != "." && text != ".."
            && !text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") }
    }
}

// MARK: - Sets of references

/// Attachment lists are sets, kept sorted and unique as tags are.
public enum Attachments {
    /// Drops duplicates and sorts.
    public static func normalize<S: Sequence>(_ list: S) -> [AttachedFile] where S.Element == AttachedFile {
        let files = Array(list)
        // Most items have no files: no set to build (every item read from the wire comes here).
        guard files.count > 1 else { return files }
        return Array(Set(files)).sorted()
    }

    /// Reads the references of a value (`.strings` of `wireText`, or null for none).
    public static func parse(_ texts: [String]) throws(ValidationError) -> [AttachedFile] {
        var result: [AttachedFile] = []
        for text in texts {
            guard let attachment = AttachedFile(wireText: text) else { throw .invalidAttachment(text) }
            result.append(attachment)
        }
        return normalize(result)
    }

    /// The value ops carry for a set of references.
    public static func value(_ list: [AttachedFile]) -> FieldValue {
        .strings(list.map(\.wireText))
    }

    /// The media type of a file by its name's extension; `application/octet-stream` when unknown.
    public static func mediaType(forName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        let ext = name[name.index(after: dot)...].lowercased()
        return knownTypes[ext] ?? "application/octet-stream"
    }

    private static let knownTypes: [String: String] = [
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "json": "application/json", "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
        "heic": "image/heic", "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav", "mp4": "video/mp4",
        "webm": "video/webm", "mov": "video/quicktime", "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]
}

// MARK: - JSON

/// In an item's JSON (`quire show --json`, export): `{"name", "size", "mediaType", "hash"}`,
/// with `wrappedKey` only when there is one.
extension AttachedFile: Codable {
    enum CodingKeys: String, CodingKey { case name, size, mediaType, hash, wrappedKey }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let hash = try container.decode(String.self, forKey: .hash)
        let size = try container.decode(Int64.self, forKey: .size)
        guard AttachedFile.isName(name), AttachedFile.isHash(hash), size >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .hash, in: container, debugDescription: "not an attachment: a file name, a size and a SHA-256")
        }
        var mediaType = try container.decodeIfPresent(String.self, forKey: .mediaType) ?? ""
        // The one-line reference keeps a media type without spaces.
        if mediaType.isEmpty || mediaType.contains(" ") { mediaType = Attachments.mediaType(forName: name) }
        self.init(
            name: name, size: size, mediaType: mediaType,
            hash: hash, wrappedKey: try container.decodeIfPresent(String.self, forKey: .wrappedKey))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(hash, forKey: .hash)
        try container.encodeIfPresent(wrappedKey, forKey: .wrappedKey)
    }
}
