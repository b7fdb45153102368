import Foundation
import QuireCore
import TerminalUI

/// Everything the screen shows, as one value. The runtime owns the only copy, on its UI queue.
public struct AppState: Hashable, Sendable {
    /// The screen in front; the list stays loaded underneath the others.
    public enum Screen: Hashable, Sendable {
        case list
        /// The selected item on its own, scrolled by `scroll` rows.
        case detail(scroll: Int)
        case editor(EditorState)
        case help(scroll: Int)
        case syncStatus
        /// An item that needs review: its conflicts and the person's choices.
        case resolve(ResolveState)
        /// Every version of one item, to read and restore.
        case history(HistoryState)
        /// The saved views of the config, to switch between.
        case views(ViewsState)
        /// The link picker: an item's links and the items that link to it.
        case links(LinkPickerState)
    }

    /// A one-line input over the list, or over the item view (the file prompts).
    public enum PromptKind: Hashable, Sendable {
        case search
        case tag
        /// The path of a file to attach to the item with this id.
        case attachFile(itemID: String)
        /// Where to save a copy of an attached file.
        case saveAttachment(AttachedFile)
    }

    public struct Prompt: Hashable, Sendable {
        public var kind: PromptKind
        public var field: TextField
        /// The query before the prompt opened, restored by Esc on a tag prompt.
        public var queryBefore: ListQuery
        /// The text is the tag shown when the prompt opened, as if selected: the first
        /// character typed replaces it (instead of adding to it) and Backspace clears it.
        public var replacesOnTyping = false
        /// Why the search text does not read as a filter (the list keeps the last that did).
        public var error: String?
    }

    /// A yes/no question over the current screen.
    public enum Question: Hashable, Sendable {
        case discardChanges
        /// Leave the resolve screen, dropping the choices made on it.
        case dropResolveChoices
        /// Discard a dead letter for good (asked on the sync status screen).
        case discardDeadLetter(SyncStatusDetail.DeadLetter)
        /// Delete an item of the trash for good (`P`): nothing can bring it back.
        case purge(id: String, title: String)
        /// Replace the file at `path` with a copy of an attached file (`w`).
        case replaceFile(AttachedFile, path: String)
    }

    /// What the status bar says after `s` started a round; it goes once the round is over.
    public static let syncStartedNotice = "Syncing…"

    /// How long a notice stays when no key takes it away first: long enough to read, short
    /// enough that "Saved" does not outlive what it said (the sync round's notice stays until
    /// the round ends).
    public static let noticeLifetime: TimeInterval = 4

    /// A short message in the status bar until the next key, or `noticeLifetime` (an error
    /// stays until the next key).
    public struct Notice: Hashable, Sendable {
        /// What the notice is about, so that code tells notices apart without reading their words.
        public enum Kind: Hashable, Sendable {
            case info
            case error
            /// A sync round the person started with `s`: the round's end takes it away.
            case syncRound
        }

        public var text: String
        public var kind: Kind

        public init(text: String, kind: Kind) {
            self.text = text
            self.kind = kind
        }

        public init(text: String, isError: Bool) {
            self.init(text: text, kind: isError ? .error : .info)
        }

        public var isError: Bool { kind == .error }

        public static func info(_ text: String) -> Notice { Notice(text: text, kind: .info) }
        public static func error(_ text: String) -> Notice { Notice(text: text, kind: .error) }
        public static let syncStarted = Notice(text: AppState.syncStartedNotice, kind: .syncRound)
    }

    public var size: Size
    public var screen: Screen
    public var list: ListState
    public var prompt: Prompt?
    /// The unlock prompt (`U`), over whatever screen is shown.
    public var unlock: UnlockPrompt?
    public var question: Question?
    public var notice: Notice? {
        didSet { if notice != oldValue { noticeSince = notice == nil ? nil : now } }
    }
    /// When the notice on screen appeared (the tick before it): it goes `noticeLifetime` later.
    public private(set) var noticeSince: Date?
    /// Where sync stands: the store's counts with the worker's own state over them.
    public var sync: SyncSummary
    /// What the sync worker last said; nil when none runs here (or before it spoke).
    public var syncWorker: SyncWorkerState?
    /// After `s`: the worker's finished-round count that means the round asked for is over.
    public var syncNowTarget: Int?
    /// The time of the runtime's last tick: the status bar's clock ("retrying in 8s" counts
    /// down with it). Nil until the first tick.
    public var now: Date?
    /// When a store change asked for the list to be read again, until that page arrives.
    public var listRereadSince: Date?
    /// The sync summary that came with that store change, shown with the page (`releaseHeldSync`).
    public var heldSync: SyncSummary?
    /// Where the person is, for the clock times the status bar shows.
    public var timeZone: TimeZone
    /// The sync status screen's report, selection and outbox depth history.
    public var syncStatus: SyncStatusState
    public var today: Day?
    /// Set once the person asked to quit; the runtime stops after this frame.
    public var quitting: Bool
    /// Bodies in the preview and the item view as typed rather than rendered as Markdown (`m`).
    public var showsRawText = false
    /// Which task box of the item view's text `b` ticks (`]` and `[` move it); nil for the first.
    public var selectedBox: Int?
    /// The items links were followed from, the last one last (Backspace goes back to it).
    public var linkTrail: [String] = []
    /// The links of the item in the item view, and the items that link to it, once read.
    public var itemLinks: ItemLinks?
    /// Where each file attached to the item in the item view stands, once read.
    public var attachmentStates: AttachmentStates?
    /// Which attached file of the item view `o` opens and `w` saves (Tab moves it).
    public var selectedAttachment = 0

    public init(size: Size, today: Day? = nil, query: ListQuery = ListQuery(), timeZone: TimeZone = .current) {
        self.size = size
        screen = .list
        list = ListState(query: query)
        prompt = nil
        question = nil
        notice = nil
        noticeSince = nil
        sync = SyncSummary(connection: .noRemote)
        syncWorker = nil
        syncNowTarget = nil
        now = nil
        self.timeZone = timeZone
        syncStatus = SyncStatusState()
        self.today = today
        quitting = false
    }

    /// Today and where the person's days start, for the dates in a search (`due.before:eow`).
    public var filterCalendar: FilterCalendar {
        let calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar
        }()
        let today = self.today ?? Day(ordinal: Int(((now ?? Date()).timeIntervalSince1970 / 86_400).rounded(.down)))
        return FilterCalendar(today: today ?? Day(year: 2000, month: 1, day: 1)!) { day in
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
                ?? Date(timeIntervalSince1970: TimeInterval(day.ordinal) * 86_400)
        }
    }

    /// The status bar's words for sync at the last tick, e.g. `3 pending · offline, retrying in 8s`.
    public var syncLine: String {
        syncLine(at: now ?? .distantPast)
    }

    /// The status bar's sync words at a time; a locked device is pointed to `U` where `U`
    /// unlocks, and to the list elsewhere (in the editor `U` is a letter).
    func syncLine(at time: Date) -> String {
        let here = unlock != nil || Keymap.bindings(in: keyContext).contains { $0.command == .unlock }
        return sync.statusLine(
            now: time, timeZone: timeZone, unlock: here ? "press U to unlock" : "U on the list unlocks")
    }

    /// The smallest terminal the screens fit in (SPEC: 20x6).
    public static let minimumSize = Size(width: 20, height: 6)

    public var isTooSmall: Bool {
        size.width < AppState.minimumSize.width || size.height < AppState.minimumSize.height
    }

    /// The context that decides what keys mean right now.
    public var keyContext: KeyContext {
        if question != nil { return .confirm }
        if unlock != nil { return .prompt }
        switch screen {
        case .list: return prompt != nil ? .prompt : .list
        case .syncStatus: return .syncStatus
        case .resolve(let resolve): return resolve.bodyEditor != nil || resolve.fieldEditor != nil ? .editor : .resolve
        case .detail: return prompt != nil ? .prompt : .detail
        case .editor: return .editor
        case .help: return .help
        case .history: return .history
        case .views: return .views
        case .links: return .links
        }
    }

    public var editor: EditorState? {
        if case .editor(let editor) = screen { return editor }
        return nil
    }
}
