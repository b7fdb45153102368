/// What a key asks the app to do; the keymap maps keys to commands per context.
public enum Command: String, Hashable, Sendable, CaseIterable {
    // Moving
    case moveDown, moveUp, moveTop, moveBottom, pageDown, pageUp
    // Items
    case open, newNote, newTask, edit, editExternally, toggleDone, delete, undo, pin, toggleMarkdown
    // Task boxes in a body
    case nextBox, previousBox, tickBox
    // Links
    case links, linkBack
    // Attached files
    case attachFile, openAttachment, saveAttachment, nextAttachment
    // Finding
    case search, filterKind, filterStatus, filterTag, back, toggleTrash, restore, purge, views, cycleOrder, agenda
    // Sync
    case nextNeedingReview, syncNow, syncStatus, unlock
    // Sync status
    case retryDeadLetter, discardDeadLetter, toggleSyncDetail
    // App
    case help, quit, suspend
    // Editor
    case switchField, save, cancel
    case cursorLeft, cursorRight, cursorUp, cursorDown, cursorHome, cursorEnd, cursorPageUp, cursorPageDown
    case newline, deleteBackward, deleteForward, killLine, deleteWord
    // Resolve
    case chooseLocal, chooseRemote, chooseBoth, chooseAllLocal, chooseAllRemote, toggleView, togglePreview
    // Prompts and questions
    case accept, confirm, decline, complete
    // History
    case history, restoreVersion
}

/// Where the person is, which decides what a key means.
public enum KeyContext: String, Hashable, Sendable, CaseIterable {
    case list
    case detail
    case prompt
    case editor
    case help
    case syncStatus
    case resolve
    case history
    case views
    case links
    case confirm

    /// The heading of this context in help and in the README.
    public var title: String {
        switch self {
        case .list: "List"
        case .detail: "Item view"
        case .prompt: "Prompts (search, tag, file path)"
        case .editor: "Editor"
        case .help: "Help"
        case .syncStatus: "Sync status"
        case .resolve: "Resolve"
        case .history: "History"
        case .views: "Saved views"
        case .links: "Links"
        case .confirm: "Questions"
        }
    }
}
