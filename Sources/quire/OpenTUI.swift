import Foundation
import NCursesBackend
import QuireApp
import QuireStore
import QuireSync

/// Opens the full-screen app; `quire` with no subcommand lands here.
///
/// The store is opened before the terminal is touched, so a store problem prints its one line
/// and exit code like any command. Without a terminal on both standard input and output there
/// is nothing to draw on: the error points to the CLI instead. The terminal is restored on every
/// way out: quitting, an error, and the signals `TerminalSession` handles (the crash handler in
/// the ncurses shim covers the rest).
func openTUI(help: String) throws {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
        throw CLIFailure.badInput(
            "the full-screen app needs a terminal; use the commands instead, e.g. 'quire list' (see 'quire --help')")
    }
    // The network's threads below the UI, as sync's rounds and transfers are: before anything
    // makes a request.
    HTTPSyncTransport.sendRequestsBelowTheUI()
    let environment = ProcessInfo.processInfo.environment
    let store = try StoreAccess.open()
    let session = TerminalSession()
    let terminal: NCursesTerminal
    do {
        terminal = try NCursesTerminal(environment: environment)
    } catch {
        throw CLIFailure.badInput("\(error)")
    }
    // Sync runs in the background for as long as the app is open: its own serial queue and
    // timers, rounds off the UI queue, one sync per database across processes (the lock).
    let settings = SyncCommandSupport.settings()
    let engine = SyncCommandSupport.engine(store: store, settings: settings)
    // A pull applying page after page must never take a core a key wants.
    engine.runsBelowTheUI = true
    // The worker and the hint stream tell the app of every change of their state (`news`).
    let news = SyncNews(isLocked: { (try? store.syncMeta()).map(settings.isLocked) ?? false })
    let worker = SyncWorker(
        runner: engine, scheduler: LiveSyncScheduler(now: store.environment.now),
        lastSuccess: try? store.syncMeta().lastSuccessAt, onStatus: { news.workerChanged($0) })
    // Live sync: a hint that the feed moved starts a pull at once; a change of the settings in
    // another terminal (remote set or removed, a new token) takes effect within a second.
    let ledger = engine.ledger
    let hints = HintFollower(
        connect: { settings.remote() }, live: { settings.liveHints }, cursorSeq: { ledger.cursorSeq() },
        onMove: { worker.syncNow() }, onState: { news.hintsChanged($0) })
    news.link(worker: worker, hints: hints)
    engine.onFirstPull = { news.firstPullChanged($0) }
    let watcher = SettingsWatcher(settings: settings) {
        worker.credentialsChanged()
        hints.reconnect()
    }
    var appEnvironment = AppEnvironment.live(store: store, settings: settings, environment: environment)
    appEnvironment.sync = LiveSyncControl(
        settings: settings, worker: worker, engine: engine, news: news,
        storeLastSuccess: { try? store.syncMeta().lastSuccessAt })
    appEnvironment.savedViews = { settings.savedViews() }
    let runtime = AppRuntime(environment: appEnvironment, backend: terminal)
    // A config file that does not read leaves sync off; the app still opens on the local store.
    var notices = [terminal.notice]
    do { try settings.check() } catch { notices.append("Sync is off: \(error.description)") }
    let startup = notices.compactMap { $0 }.joined(separator: " · ")
    runtime.startupNotice = startup.isEmpty ? nil : startup
    worker.start()
    hints.start()
    watcher.start()
    let status = session.run(runtime, backend: terminal)
    watcher.stop()
    hints.stop()
    worker.stop()
    terminal.close()
    if status != 0 { exit(status) }
}
