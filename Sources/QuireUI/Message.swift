import Foundation
import QuireCore
import TerminalUI

/// Something that happened; `AppState.update` turns each into a new state and effects.
public enum Message: Hashable, Sendable {
    case key(Key)
    /// Text the person pasted, whole (a bracketed paste): text wherever text is typed, never keys.
    case paste(String)
    case resized(Size)
    /// The store changed (our own write, the sync worker, or another process): reload.
    case storeChanged
    /// Another commit touched only sync's own records (its log, its meta, a file's transfer
    /// progress) or the editor's drafts: the sync status screen and an item's files are read
    /// again, the list is not.
    case syncRecordsChanged
    case listLoaded(ListPage)
    /// A write finished; on success, the item written and how it met the item.
    case written(WriteIntent, Result<WriteDone, WriteFailure>)
    case externalEditFinished(ExternalEditOutcome)
    /// The store's sync counts changed (pending, needs review, rejected).
    case syncChanged(SyncSummary)
    /// The sync worker's state changed: its connection, hint stream, rounds or schedule.
    case syncWorkerChanged(SyncWorkerState)
    /// The clock moved on: the status bar's countdowns and times are worded from it.
    case tick(Date)
    /// A short notice for the status bar (e.g. the answer to "sync now").
    case notice(AppState.Notice)
    /// The answer to "next item needing review": its id, or nil when there is none.
    case reviewTargetFound(String?)
    /// The sync status screen's read, retry or discard answered.
    case syncStatus(SyncStatusEvent)
    /// The versions of an item to review; nil when it no longer needs review.
    case reviewLoaded(id: String, ReviewVersions?)
    /// A resolution was written (`error` is nil) or could not be.
    case resolveFinished(id: String, error: String?)
    /// What `prefix` completes to (`Effect.complete`): tags most used first, titles by name.
    case completionsFound(CompletionKind, prefix: String, [String])
    /// How many items a search matches in all.
    case matchesCounted(ListQuery, Int)
    /// The item an open editor edits, as the store holds it now (nil: gone or unreadable).
    case editedItemRead(id: String, Item?)
    /// The versions of an item, newest first, or why they could not be read.
    case historyLoaded(id: String, Result<[HistoryVersion], WriteFailure>)
    /// The saved views of the config (`Effect.loadSavedViews`).
    case savedViewsLoaded(SavedViewList)
    /// An item's links, then its backlinks (`Effect.loadLinks`).
    case linksLoaded(id: String, [LinkEntry])
    /// Where the files attached to an item stand (`AttachmentRequest.readStates`).
    case attachmentStatesRead(AttachmentStates)
    /// How an attach, open or save went.
    case attachmentAnswered(AttachmentAnswer)
    /// What `u` took back: nil when there was nothing left to undo.
    case undone(Result<UndoneAction?, WriteFailure>)
    case today(Day)
    /// How unlocking this device went (`Effect.unlock`).
    case unlockFinished(UnlockOutcome)
    /// Text an earlier run left unsaved in the editor, offered back in the editor.
    case restoreDraft(EditorState)
}

/// One page of the list as the store answered a `ListRequest`.
public struct ListPage: Hashable, Sendable {
    public var query: ListQuery
    /// How many items match the query in all.
    public var total: Int
    /// The list index of `items[0]`.
    public var offset: Int
    public var items: [Item]
    /// The short id of each of `items` (see `ShortID`).
    public var shortIDs: [String: String]
    /// Where the selection goes: the anchor item's new index when it is still in the list,
    /// otherwise the requested index clamped to the list.
    public var selection: Int
    /// Whether the anchor item was found (its index moved with it).
    public var anchorFound: Bool
    /// The request this answers, when it was a refresh after a store change (see
    /// `ListRequest.isRefresh`); nil for a load a key asked for.
    public var refresh: ListRequest?
    /// More items match than the `total` listed (a search lists only its best matches).
    public var moreMatch: Bool

    public init(
        query: ListQuery, total: Int, offset: Int, items: [Item], shortIDs: [String: String] = [:],
        selection: Int, anchorFound: Bool, refresh: ListRequest? = nil, moreMatch: Bool = false
    ) {
        self.moreMatch = moreMatch
        self.query = query
        self.total = total
        self.offset = offset
        self.items = items
        self.shortIDs = shortIDs
        self.selection = selection
        self.anchorFound = anchorFound
        self.refresh = refresh
    }
}

/// How a hand-off to `$EDITOR` ended.
public struct ExternalEditOutcome: Hashable, Sendable {
    public var id: String
    /// The title and body before the editor opened; non-nil when the editor's saves changed the
    /// item (each save is a step `u` takes back).
    public var before: [Field: FieldValue]?
    public var title: String
    /// The editor could not start or its file could not be saved.
    public var error: String?
    /// How the saves met the item: `.merged` when one merged with a change made meanwhile,
    /// `.needsReview` when one met a change in the same place (both kept).
    public var met: SavedWrite.Outcome

    public init(
        id: String, before: [Field: FieldValue]?, title: String, error: String? = nil,
        met: SavedWrite.Outcome = .saved
    ) {
        self.id = id
        self.before = before
        self.title = title
        self.error = error
        self.met = met
    }
}
