import QuireCore

/// What the list shows: filters plus the live search text. The store answers it page by page.
///
/// Without a search the order is fixed: pinned first, then newest first (ids are UUIDv7, so
/// id order is creation order). A search lists its best matches first (`AppDatabase.search`).
public struct ListQuery: Hashable, Sendable {
    /// nil for notes and tasks alike.
    public var kind: ItemKind?
    public var status: StatusFilter
    public var tag: String?
    /// Full-text search over title, body and tags; empty for no search.
    public var search: String
    /// Only items whose sync state is needs-review.
    public var needsReviewOnly: Bool
    /// The trash: deleted items only (the other filters still apply).
    public var trash: Bool

    public init(
        kind: ItemKind? = nil, status: StatusFilter = .any, tag: String? = nil, search: String = "",
        needsReviewOnly: Bool = false, trash: Bool = false
    ) {
        self.kind = kind
        self.status = status
        self.tag = tag
        self.search = search
        self.needsReviewOnly = needsReviewOnly
        self.trash = trash
    }

    /// True when nothing narrows the list.
    public var isUnfiltered: Bool {
        kind == nil && status == .any && tag == nil && search.trimmingWhitespace().isEmpty && !needsReviewOnly
            && !trash
    }

    /// The filters in words for the status bar, e.g. `tasks · open · #home · /milk`.
    public var summary: [String] {
        var parts: [String] = trash ? ["trash"] : []
        switch kind {
        case .note?: parts.append("notes")
        case .task?: parts.append("tasks")
        case nil: break
        }
        if status != .any { parts.append(status.rawValue) }
        if let tag { parts.append(DetailsLine.tagWord(tag)) }
        if needsReviewOnly { parts.append("needs review") }
        let trimmed = search.trimmingWhitespace()
        if !trimmed.isEmpty { parts.append("/" + trimmed) }
        return parts
    }

    /// Whether an item belongs in this list, for stores that filter in memory.
    ///
    /// The search part is a plain case-insensitive substring test over title, body and tags; a
    /// real store answers searches with its full-text index instead.
    public func matches(_ item: Item) -> Bool {
        if item.deleted != trash { return false }
        if let kind, item.kind != kind { return false }
        if !status.admits(item) { return false }
        if let tag, !item.tags.contains(where: { Tags.same($0, tag) }) { return false }
        if needsReviewOnly && item.syncState != .needsReview { return false }
        let words = search.lowercased().split(separator: " ")
        if !words.isEmpty {
            let haystack = (item.title + "\n" + item.body + "\n" + item.tags.joined(separator: " ")).lowercased()
            for word in words where !haystack.contains(word) { return false }
        }
        return true
    }

    /// The list order: pinned first, then newest (largest id) first.
    public static func precedes(_ a: Item, _ b: Item) -> Bool {
        if a.pinned != b.pinned { return a.pinned }
        return a.id > b.id
    }
}
