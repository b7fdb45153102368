import Foundation
import QuireCore

/// One version of an item as the history view lists it.
public struct HistoryVersion: Hashable, Sendable {
    /// Order of recording on this device (larger is newer).
    public var seq: Int64
    public var recordedAt: Date
    /// Where it came from, in a word: local, import, remote, merge, resolve or undo.
    public var origin: String
    public var item: Item

    public init(seq: Int64, recordedAt: Date, origin: String, item: Item) {
        self.seq = seq
        self.recordedAt = recordedAt
        self.origin = origin
        self.item = item
    }
}

/// The history view of one item (`h`): every version this device has seen or made, newest
/// first, one of them selected and previewed, and `r` to make it the item's content again.
public struct HistoryState: Hashable, Sendable {
    public var itemID: String
    /// The title the list showed, for the heading until the versions are read.
    public var title: String
    /// Newest first; nil until the store has answered.
    public var versions: [HistoryVersion]?
    /// Why the history could not be read.
    public var loadError: String?
    public var selected: Int = 0
    /// A restore is being written: keys that write wait for its answer.
    public var saving = false
    /// The next reading selects the newest version (the one a restore just wrote).
    public var selectsNewest = false

    public init(itemID: String, title: String) {
        self.itemID = itemID
        self.title = title
    }

    public var selectedVersion: HistoryVersion? {
        guard let versions, versions.indices.contains(selected) else { return nil }
        return versions[selected]
    }

    /// What the version at `index` changed from the one before it.
    public func summary(at index: Int) -> String {
        guard let versions, versions.indices.contains(index) else { return "" }
        let older = index + 1 < versions.count ? versions[index + 1].item : nil
        return VersionSummary.describe(versions[index].item, since: older)
    }

    /// The write that makes the selected version the item's content again, or why there is none.
    /// The fields that differ from the newest version are set; nothing else moves. The newest
    /// version is what the person saw: if the item moved since, the store merges (`WriteMerge`).
    public func restorePlan() -> Result<WriteIntent, WriteFailure> {
        guard let version = selectedVersion, let current = versions?.first?.item else {
            return .failure(WriteFailure("The history is still being read"))
        }
        if current.deleted {
            return .failure(WriteFailure("The item is in the trash: restore it there first (T, then r)"))
        }
        if version.item.deleted {
            return .failure(WriteFailure("That version is the deletion: choose a version with content"))
        }
        var fields: [Field: FieldValue] = [:]
        for field in Field.allCases where version.item.value(of: field) != current.value(of: field) {
            fields[field] = version.item.value(of: field)
        }
        if fields.isEmpty { return .failure(WriteFailure("That version holds what the item holds now")) }
        return .success(
            .restoreVersion(
                id: itemID, title: version.item.title,
                before: Dictionary(uniqueKeysWithValues: fields.keys.map { ($0, current.value(of: $0)) }),
                fields: fields, recordedAt: version.recordedAt))
    }
}
