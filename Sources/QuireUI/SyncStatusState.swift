import QuireCore

/// What the sync status screen keeps between frames: the last report read, the selected dead
/// letter, and the outbox depth over time for the sparkline.
///
/// The depth history is sampled whenever the sync summary changes, whether or not the screen
/// is open, so the sparkline has a past the moment the person opens it.
public struct SyncStatusState: Hashable, Sendable {
    /// How many outbox depth samples are kept (and at most drawn).
    public static let historyLimit = 60

    /// The last report read; nil until the first read answers.
    public var detail: SyncStatusDetail?
    /// The selected dead letter, an index into `detail.deadLetters`.
    public var selection: Int
    /// Outbox depth samples, oldest first, at most `historyLimit`.
    public private(set) var depthHistory: [Int]
    /// Why the last read failed, until one succeeds.
    public var loadError: String?
    /// A read is running; another is asked for only once it answers (`reloadWanted`), so a
    /// burst of store changes never queues up reads.
    public internal(set) var loading: Bool
    var reloadWanted: Bool
    /// `i`: the failure's own words are shown under the plain sentence.
    public var showsFailureDetail: Bool

    public init() {
        detail = nil
        selection = 0
        depthHistory = []
        loadError = nil
        loading = false
        reloadWanted = false
        showsFailureDetail = false
    }

    /// Adds one outbox depth sample, dropping the oldest beyond `historyLimit`.
    public mutating func record(depth: Int) {
        depthHistory.append(max(0, depth))
        if depthHistory.count > SyncStatusState.historyLimit {
            depthHistory.removeFirst(depthHistory.count - SyncStatusState.historyLimit)
        }
    }

    public var selectedDeadLetter: SyncStatusDetail.DeadLetter? {
        guard let letters = detail?.deadLetters, letters.indices.contains(selection) else { return nil }
        return letters[selection]
    }

    /// Takes a new report, keeping the selection on the same dead letter when it is still there.
    mutating func show(_ new: SyncStatusDetail) {
        let selectedOp = selectedDeadLetter?.opID
        detail = new
        loadError = nil
        if let selectedOp, let index = new.deadLetters.firstIndex(where: { $0.opID == selectedOp }) {
            selection = index
        } else {
            selection = max(0, min(selection, new.deadLetters.count - 1))
        }
    }
}

/// What the runtime is asked to do for the sync status screen.
public enum SyncStatusRequest: Hashable, Sendable {
    /// Read a fresh `SyncStatusDetail` (off the UI queue).
    case load
    /// Queue the dead letter again under a new op id.
    case retry(SyncStatusDetail.DeadLetter)
    /// Drop the dead letter (its values stay in the item's history).
    case discard(SyncStatusDetail.DeadLetter)
}

/// What the runtime answers to a `SyncStatusRequest`.
public enum SyncStatusEvent: Hashable, Sendable {
    case loaded(SyncStatusDetail)
    case loadFailed(String)
    /// A retry or discard finished: `true` when it changed something, `false` when the dead
    /// letter was already gone (retried or discarded elsewhere).
    case handled(SyncStatusRequest, Result<Bool, WriteFailure>)
}

// MARK: - Update

extension AppState {
    /// The effects of opening the screen: read the report now.
    mutating func syncStatusOpened() -> [Effect] {
        syncStatus.selection = 0
        return requestSyncStatus()
    }

    /// Asks for a read, or remembers to read again when one is already running.
    mutating func requestSyncStatus() -> [Effect] {
        if syncStatus.loading {
            syncStatus.reloadWanted = true
            return []
        }
        syncStatus.loading = true
        syncStatus.reloadWanted = false
        return [.syncStatus(.load)]
    }

    /// The store changed: the open screen reads again; a closed one waits until it opens.
    mutating func syncStatusStoreChanged() -> [Effect] {
        screen == .syncStatus ? requestSyncStatus() : []
    }

    /// Samples the outbox depth when the sync summary changes (the first summary always counts).
    mutating func recordSyncSummary(_ summary: SyncSummary) {
        if summary != sync || syncStatus.depthHistory.isEmpty {
            syncStatus.record(depth: summary.pending)
        }
    }

    mutating func handleSyncStatus(_ event: SyncStatusEvent) -> [Effect] {
        switch event {
        case .loaded(let detail):
            syncStatus.loading = false
            syncStatus.show(detail)
            return syncStatus.reloadWanted && screen == .syncStatus ? requestSyncStatus() : []
        case .loadFailed(let reason):
            syncStatus.loading = false
            syncStatus.loadError = reason
            notice = Notice(text: "Cannot read the sync status: \(reason)", isError: true)
            return syncStatus.reloadWanted && screen == .syncStatus ? requestSyncStatus() : []
        case .handled(let request, let result):
            switch (request, result) {
            case (.retry(let letter), .success(true)):
                notice = Notice(text: "Queued again: \(letter.title)", isError: false)
            case (.discard(let letter), .success(true)):
                notice = Notice(text: "Discarded the rejected change to \(letter.title)", isError: false)
            case (_, .success(false)):
                notice = Notice(text: "That rejected change is already gone", isError: false)
            case (_, .failure(let failure)):
                notice = Notice(text: "Could not change the outbox: \(failure.message)", isError: true)
            case (.load, _):
                break
            }
            return screen == .syncStatus ? requestSyncStatus() : []
        }
    }

    /// A key on the sync status screen.
    mutating func syncStatusScreenCommand(_ command: Command) -> [Effect] {
        let count = syncStatus.detail?.deadLetters.count ?? 0
        switch command {
        case .unlock:
            return openUnlock()
        case .moveDown:
            syncStatus.selection = max(0, min(syncStatus.selection + 1, count - 1))
        case .moveUp:
            syncStatus.selection = max(0, syncStatus.selection - 1)
        case .retryDeadLetter:
            guard let letter = syncStatus.selectedDeadLetter else {
                notice = Notice(text: "No rejected change to retry", isError: false)
                return []
            }
            return [.syncStatus(.retry(letter))]
        case .discardDeadLetter:
            guard let letter = syncStatus.selectedDeadLetter else {
                notice = Notice(text: "No rejected change to discard", isError: false)
                return []
            }
            question = .discardDeadLetter(letter)
        case .nextNeedingReview:
            screen = .list
            return [.findNextNeedingReview(after: nil)]
        case .syncNow:
            return [.syncNow]
        case .toggleSyncDetail:
            syncStatus.showsFailureDetail.toggle()
        case .back:
            screen = .list
        case .quit:
            return quit()
        default:
            break
        }
        return []
    }
}
