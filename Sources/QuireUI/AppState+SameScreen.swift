import Foundation
import QuireCore

extension AppState {
    /// Whether this state's frame is the one `drawn` drew: the two differ only in what no
    /// screen shows (that the list is being read again, and the sync summary held for that
    /// read), in a clock that changes nothing on screen, and, outside the sync status screen,
    /// in sync facts the status bar does not show (its line and colour are all it shows of
    /// them) and in that screen's own state.
    ///
    /// The runtime draws nothing then. During an upload the sync worker commits progress ten
    /// times a second and starts a round several times a second: each commit made the store's
    /// poll render a frame and its list read another with the same rows, each round a frame
    /// with the same status bar, and a key pressed meanwhile waited for them.
    public func drawsTheSameScreen(as drawn: AppState) -> Bool {
        var same = drawn
        if !screenReadsTheClock { same.now = now }
        same.listRereadSince = listRereadSince
        same.heldSync = heldSync
        if screen != .syncStatus {
            same.sync = sync
            same.syncWorker = syncWorker
            same.syncStatus = syncStatus
        }
        return same == self && drawn.syncLine == syncLine && drawn.syncIsUrgent == syncIsUrgent
    }

    /// The history screen reads the clock itself (a version of today shows its time, an older
    /// one its date): there a new time is a new screen.
    private var screenReadsTheClock: Bool {
        if case .history = screen { return true }
        return false
    }

    /// The status bar shows sync in the error colour: something waits for the person.
    var syncIsUrgent: Bool {
        sync.needsReview > 0 || sync.deadLetters > 0
    }
}
