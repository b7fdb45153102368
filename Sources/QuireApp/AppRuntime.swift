import Dispatch
import Foundation
import QuireCore
import QuireSync
import QuireUI
import Synchronization
import TerminalUI

/// The app's engine: one serial UI queue where every message becomes an update, its effects
/// run, and the new state is rendered, diffed against the screen and drawn.
///
/// Everything mutable here (`state`, the backend, what the screen shows) is confined to
/// `queue`. Other threads talk to the runtime only through `send` and the other public methods,
/// which hop onto the queue. `activity` counts work in flight, so tests wait for idle.
public final class AppRuntime: @unchecked Sendable {
    public let queue: DispatchQueue
    public let activity = Activity()
    let environment: AppEnvironment
    let backend: any TerminalBackend

    private(set) var state: AppState
    /// What the terminal shows now; nil forces a full redraw.
    private var shown: Buffer?
    /// The state `shown` was rendered from.
    private var drawnState: AppState?
    /// The store's data version when we last read it; a different one means someone wrote.
    var lastVersion: Int?
    /// The store's shown version then: when only the data version moved, the commits were
    /// sync's own records, and the list need not be read again.
    var lastShownVersion: Int?
    /// The outbox's counts as last read: they change only with the shown version.
    var lastCounts: StoreCounts?
    private var pollTimer: (any DispatchSourceTimer)?
    private var started = false
    private var stopped = false
    private var exitStatus: Int32 = 0
    private let stoppedSignal = DispatchSemaphore(value: 0)
    /// The query of the last list load, to tell paging (same query) from a new query.
    var lastLoadedQuery: ListQuery?
    /// Loads for new queries and refreshes run here, newest only (see `loadInBackground`).
    static let loadLane = BackgroundThread(name: "quire.load")
    let loads = Generation()
    /// Full counts of capped searches run here, newest only: a count of every match of a
    /// one-letter prefix may take longer than the page, and must never hold a page up.
    static let countLane = BackgroundThread(name: "quire.count")
    let counts = Generation()
    /// Attaching, saving and opening files run here, in the order asked (`onFileLane`).
    static let fileLane = BackgroundThread(name: "quire.files")
    /// This runtime's file work not yet done: `waitUntilStopped` waits for it.
    let fileWork = DispatchGroup()
    /// Background work asked for while processing messages, started once their frame is drawn
    /// (see `startBackgroundWork`). Confined to `queue`.
    var backgroundStarts: [() -> Void] = []
    /// Called with the state after each frame, drawn or already on screen, on the UI queue
    /// (benchmarks time frames with it).
    public var onFrame: (@Sendable (AppState) -> Void)?
    /// The external editor while it runs, for signal forwarding.
    let editorChild = ChildRegistry()
    /// The editor's unsaved text on its way to the store (see `AppRuntime+Drafts`).
    let draftKeeper = DraftKeeper()
    /// Shown in the status bar of the first frame (set before `start`), e.g. a terminal fallback.
    public var startupNotice: String?
    /// Frames rendered and drawn so far, not counting those the screen showed already.
    public private(set) var framesDrawn = 0
    /// The copies of attached files handed to the opener, removed when no longer needed.
    let openerCopies: OpenerCopies
    /// A read of the watched files' states is queued for the transfers that moved (any thread).
    let transferReadQueued = Atomic<Bool>(false)

    public init(environment: AppEnvironment, backend: any TerminalBackend, label: String = "quire.ui") {
        self.environment = environment
        self.backend = backend
        queue = DispatchQueue(label: label, qos: .userInteractive)
        state = AppState(size: backend.size)
        openerCopies = OpenerCopies(temporaryDirectory: environment.temporaryDirectory)
    }

    // MARK: - Life cycle

    /// Loads the first page, draws the first frame and starts watching the store.
    public func start() {
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            guard !started else { return }
            started = true
            state = AppState(size: backend.size, today: environment.today())
            markStoreSeen()
            lastLoadedQuery = state.list.query
            var messages: [Message] = [.tick(environment.now()), storeChangeNoted()]
            for effect in state.start() { messages += perform(effect) }
            if let startupNotice { messages.append(.notice(.info(startupNotice))) }
            process(messages)
            loadDraftsToOffer()
            removeStaleOpenerCopies()
            startPolling()
            // The worker tells the app of every change of its state; nothing here asks it.
            environment.sync.follow { [weak self] worker in self?.send(.syncWorkerChanged(worker)) }
            // A download's progress is no commit: the item view hears of it from the engine.
            environment.sync.followTransfers { [weak self] in self?.transferMoved() }
        }
    }

    /// Stops the runtime (the person quit, or a signal asked); `waitUntilStopped` returns.
    public func stop(status: Int32 = 0) {
        queue.async { [self] in finish(status: status) }
    }

    /// Blocks the calling thread until the runtime stops, and a file it was attaching or saving
    /// is done (the person asked for it, and quitting must not drop it); returns the exit status.
    public func waitUntilStopped() -> Int32 {
        stoppedSignal.wait()
        stoppedSignal.signal()
        fileWork.wait()
        return queue.sync { exitStatus }
    }

    public var isStopped: Bool { queue.sync { stopped } }

    /// `stopped`, read on the UI queue.
    var isStoppedOnQueue: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return stopped
    }

    private func finish(status: Int32) {
        guard !stopped else { return }
        keepDraftNow()
        openerCopies.removeOwn()
        stopped = true
        exitStatus = status
        pollTimer?.cancel()
        pollTimer = nil
        stoppedSignal.signal()
    }

    // MARK: - Input

    /// Handles one message on the UI queue.
    public func send(_ message: Message) {
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            guard !stopped else { return }
            process([message])
        }
    }

    /// Presses keys one after another, each drawn before the next.
    public func press(_ keys: Key...) {
        for key in keys { send(.key(key)) }
    }

    /// Reads every key and paste waiting in the backend, then draws once. Called on the UI
    /// queue when the terminal's input becomes readable. Returns how many were read.
    @discardableResult
    public func readInput() -> Int {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopped else { return 0 }
        activity.begin()
        defer { activity.end() }
        var messages: [Message] = []
        while let input = backend.readInput() {
            switch input {
            case .key(let key): messages.append(.key(key))
            case .paste(let text): messages.append(.paste(text))
            }
        }
        if !messages.isEmpty { process(messages) }
        return messages.count
    }

    /// The backend has keys waiting: read them on the UI queue (what the terminal's read source
    /// does; tests call it after typing into a `TestBackend`).
    public func inputAvailable() {
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            readInput()
        }
    }

    /// The terminal changed size: measure it and redraw everything.
    public func terminalResized() {
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            guard !stopped else { return }
            let size = backend.refreshSize()
            shown = nil
            process([.resized(size)])
        }
    }

    // MARK: - What tests and benchmarks look at

    /// A copy of the state, read on the UI queue.
    public var currentState: AppState { queue.sync { state } }

    /// Waits until every message sent so far has been handled and drawn.
    @discardableResult
    public func waitUntilIdle(timeout: TimeInterval = 10) -> Bool {
        activity.waitUntilIdle(timeout: timeout)
    }

    // MARK: - The loop

    /// Updates with each message (and the messages its effects produce), then draws once.
    /// The clock goes first, so that what the messages show (a notice, a countdown) starts
    /// from now. What an effect answers is handled before the next message: keys typed in one
    /// burst (`Tab` then `Enter` in the tag prompt) each meet the state the key before left.
    func process(_ messages: [Message]) {
        var pending = [Message.tick(environment.now())] + messages
        var index = 0
        while index < pending.count {
            let effects = state.update(pending[index])
            var answers: [Message] = []
            for effect in effects { answers += perform(effect) }
            pending.insert(contentsOf: answers, at: index + 1)
            index += 1
        }
        draw()
        startBackgroundWork()
        keepDraftSoon()
        if state.quitting { finish(status: 0) }
    }

    /// Starts the loads and counts the messages asked for, now that their frame is drawn.
    ///
    /// Waking a lane's thread may hand it the core at once, and the UI queue would stay held
    /// until the scheduler gave the core back: a scheduler trace showed the UI's block that woke
    /// a refresh held for 3 to 5 ms while the refresh ran, and the keys pressed then waiting.
    /// Woken after the frame, the lane takes nothing the frame needed; a key wakes the UI's
    /// thread, which takes the core back from the lane (it runs at a lower priority).
    private func startBackgroundWork() {
        let starts = backgroundStarts
        backgroundStarts = []
        for start in starts { start() }
    }

    /// Draws the state, unless the screen shows it already (`drawsTheSameScreen`): then the
    /// frame is done without rendering. Either way `onFrame` hears of it.
    private func draw() {
        defer { onFrame?(state) }
        if shown != nil, let drawnState, state.drawsTheSameScreen(as: drawnState) { return }
        let frame = state.render()
        if let previous = shown, previous.size != frame.buffer.size { shown = nil }
        if shown == nil { backend.invalidate() }
        backend.draw(frame.buffer.updates(from: shown), cursor: frame.cursor)
        shown = frame.buffer
        drawnState = state
        framesDrawn += 1
    }

    /// The external editor took the terminal: redraw everything on the next frame.
    func forgetScreen() {
        shown = nil
    }

    // MARK: - Watching the store

    /// Polls the store's data version: cheap, and sees every writer, this process or another.
    private func startPolling() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + environment.changePollInterval, repeating: environment.changePollInterval,
            leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.checkForChanges() }
        timer.resume()
        pollTimer = timer
    }

    /// Runs one poll now, as the timer would: tests drive it, then wait for idle, to see that a
    /// poll changed nothing without waiting out a timeout.
    public func pollNow() {
        activity.begin()
        queue.async { [self] in
            defer { activity.end() }
            checkForChanges()
        }
    }

    /// Reloads when someone committed since we last looked (this process or another: the
    /// store's data version sees them all); otherwise ticks the clock when that changes what
    /// is on screen (a countdown, a notice's time being up). The sync worker's own state is
    /// never read here: it arrives as `syncWorkerChanged` messages.
    ///
    /// Commits that touched only sync's own records (the shown version stayed) read the sync
    /// status screen and an item's files again, not the list: an upload commits its progress
    /// at every chunk, and a list read for each took the cores the keys wanted.
    func checkForChanges() {
        guard !stopped else { return }
        if let version = try? environment.items.dataVersion(), version != lastVersion {
            activity.begin()
            defer { activity.end() }
            lastVersion = version
            let shown = try? environment.items.shownVersion()
            let screensMayChange = shown == nil || shown != lastShownVersion
            lastShownVersion = shown
            if !screensMayChange, let counts = lastCounts {
                // The outbox and the reviews did not change, so neither did their counts: sync
                // and the status bar hear of the commit with those read last (another process
                // may have reached the server, or removed the remote).
                process([.syncRecordsChanged, storeChangeNoted(counts: counts)])
            } else {
                process([.storeChanged, storeChangeNoted()])
            }
        } else if state.tickChangesScreen(at: environment.now()) {
            activity.begin()
            defer { activity.end() }
            process([])
        }
    }

    /// Notes the store's versions as seen: what they count is on screen, or being read for it.
    func markStoreSeen() {
        lastVersion = try? environment.items.dataVersion()
        lastShownVersion = try? environment.items.shownVersion()
    }

    /// The sync summary from the store's counts, as a message.
    func currentSync() -> Message {
        let counts = (try? environment.items.counts()) ?? StoreCounts()
        return .syncChanged(environment.sync.summary(counts: counts))
    }
}
