import QuireCore

/// Something the update asks the runtime to do; values only, so tests can look at them.
public enum Effect: Hashable, Sendable {
    /// Load (or reload) a page of the list.
    case load(ListRequest)
    case write(WriteIntent)
    /// Hand the item to `$EDITOR`, saving each save of its file as a change.
    case editExternally(Item)
    case syncNow
    /// Find the next item that needs review after the given one (in list order).
    case findNextNeedingReview(after: String?)
    /// Read the sync status screen's report, or retry or discard a dead letter (off the UI queue).
    case syncStatus(SyncStatusRequest)
    /// Read the base, local and remote versions of an item that needs review.
    case loadReview(id: String)
    /// Write a resolution the person accepted on the resolve screen.
    case resolve(ResolvePlan)
    /// What Tab completes `prefix` to: tags for the tag prompt, titles after `[[` in the
    /// editor, paths in the file prompts (`Message.completionsFound`). Answered before the
    /// next key is read.
    case complete(CompletionKind, prefix: String)
    /// Count every match of a search whose page lists only the best (`Message.matchesCounted`).
    case countMatches(ListQuery)
    /// Read the saved views of the config as it is now (`Message.savedViewsLoaded`).
    case loadSavedViews
    /// Read every version of an item (`Message.historyLoaded`).
    case loadHistory(id: String)
    /// Read an item's links and the items that link to it (`Message.linksLoaded`).
    case loadLinks(id: String)
    /// Read the item an open editor edits, as the store holds it now (`Message.editedItemRead`).
    case readEditedItem(id: String)
    /// Take back the newest local action not yet taken back (`Message.undone`).
    case undo
    /// Unlock this device with the passphrase or recovery key typed in the unlock prompt (off
    /// the UI queue: the key derivation takes about half a second; `Message.unlockFinished`).
    case unlock(UnlockRequest)
    /// Read, attach, open or save attached files (`Message.attachmentStatesRead`,
    /// `Message.attachmentAnswered`).
    case attachments(AttachmentRequest)
    /// Hand the terminal to the shell and stop, as Ctrl-Z does; `fg` comes back (`resized`).
    case suspendToShell
    case quit
}

/// A request for one page of the list around a selection.
public struct ListRequest: Hashable, Sendable {
    public var query: ListQuery
    /// Keep the selection on this item if it is still in the list (wherever it moved to).
    public var anchorID: String?
    /// The selection to use when there is no anchor or it is gone (clamped to the list).
    public var index: Int
    /// How many rows the list shows; a page is a few screens around the selection.
    public var visibleRows: Int
    /// Asked for because the store changed, not by a key: it never makes a key wait, so it is
    /// read off the UI queue, and its answer is dropped if the selection moved meanwhile.
    public var isRefresh: Bool
    /// Asked for by a key that scrolled past the loaded rows. Its total may be the last one
    /// counted: when the store has changed since, a refresh is on its way and counts again.
    public var isPaging: Bool

    public init(
        query: ListQuery, anchorID: String?, index: Int, visibleRows: Int, isRefresh: Bool = false,
        isPaging: Bool = false
    ) {
        self.query = query
        self.anchorID = anchorID
        self.index = index
        self.visibleRows = visibleRows
        self.isRefresh = isRefresh
        self.isPaging = isPaging
    }

    /// How many rows to load: three screens, so paging one screen either way needs no query.
    public var limit: Int { max(30, visibleRows * 3) }

    /// Where the page starts for a selection: one screen above it, clamped to the list.
    public func offset(selection: Int, total: Int) -> Int {
        let start = selection - max(10, visibleRows)
        return max(0, min(start, total - limit))
    }
}
