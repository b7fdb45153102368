import Foundation

/// Items encode as SPEC.md's JSON item: every field present (null where empty) and times as
/// RFC 3339 text whatever the encoder's date strategy, so scripts see one stable shape.
extension Item: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, title, body, tags, done, doneAt, due, priority, pinned, project, recur, wait, scheduled,
            attachments
        case createdAt, updatedAt, deleted, rev, syncState, serverVersion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> Date? { try container.decodeTimeIfPresent(forKey: key) }
        let created = try time(.createdAt) ?? Date(timeIntervalSince1970: 0)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            kind: try container.decodeIfPresent(ItemKind.self, forKey: .kind) ?? .note,
            title: try container.decode(String.self, forKey: .title),
            body: try container.decodeIfPresent(String.self, forKey: .body) ?? "",
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            done: try container.decodeIfPresent(Bool.self, forKey: .done) ?? false,
            doneAt: try time(.doneAt),
            due: try container.decodeIfPresent(Day.self, forKey: .due),
            priority: try container.decodeIfPresent(Priority.self, forKey: .priority) ?? .none,
            pinned: try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false,
            project: try container.decodeIfPresent(String.self, forKey: .project),
            recur: try container.decodeIfPresent(Recurrence.self, forKey: .recur),
            wait: try container.decodeIfPresent(Day.self, forKey: .wait),
            scheduled: try container.decodeIfPresent(Day.self, forKey: .scheduled),
            attachments: try container.decodeIfPresent([AttachedFile].self, forKey: .attachments) ?? [],
            createdAt: created,
            updatedAt: try time(.updatedAt) ?? created,
            deleted: try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false,
            rev: try container.decodeIfPresent(Int.self, forKey: .rev) ?? 0,
            syncState: try container.decodeIfPresent(SyncState.self, forKey: .syncState) ?? .pending,
            serverVersion: try container.decodeIfPresent(String.self, forKey: .serverVersion).flatMap(
                ServerVersion.init)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(tags, forKey: .tags)
        try container.encode(done, forKey: .done)
        try container.encode(doneAt.map(Timestamp.string(from:)), forKey: .doneAt)
        try container.encode(due, forKey: .due)
        try container.encode(priority, forKey: .priority)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(project, forKey: .project)
        try container.encode(recur, forKey: .recur)
        try container.encode(wait, forKey: .wait)
        try container.encode(scheduled, forKey: .scheduled)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(Timestamp.string(from: createdAt), forKey: .createdAt)
        try container.encode(Timestamp.string(from: updatedAt), forKey: .updatedAt)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(rev, forKey: .rev)
        try container.encode(syncState, forKey: .syncState)
        try container.encodeIfPresent(serverVersion?.description, forKey: .serverVersion)
    }
}
