import Foundation
import NCursesBackend
import QuireApp
import QuireStore

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
    let environment = ProcessInfo.processInfo.environment
    let store = try StoreAccess.open()
    let session = TerminalSession()
    let terminal: NCursesTerminal
    do {
        terminal = try NCursesTerminal(environment: environment)
    } catch {
        throw CLIFailure.badInput("\(error)")
    }
    let runtime = AppRuntime(environment: .live(store: store, environment: environment), backend: terminal)
    runtime.startupNotice = terminal.notice
    let status = session.run(runtime, backend: terminal)
    terminal.close()
    if status != 0 { exit(status) }
}
