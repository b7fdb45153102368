import Dispatch
import Foundation
import TerminalUI

/// Connects a runtime to a real terminal: key input, resizes and the signals that end the app.
///
/// Create it before the terminal library starts: it installs its own handlers for the signals
/// it handles first, so curses leaves them alone and they arrive here instead.
public final class TerminalSession: @unchecked Sendable {
    private let signalQueue = DispatchQueue(label: "quire.signals")
    private var sources: [any DispatchSourceProtocol] = []
    private let signals: SignalPipe
    private static let handled: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    public init() {
        signals = SignalPipe(signals: TerminalSession.handled)
    }

    /// Runs the app until the person quits or a signal ends it; returns the exit status
    /// (0, or 128 + the signal). The caller then closes the backend.
    public func run(_ runtime: AppRuntime, backend: any TerminalBackend) -> Int32 {
        signals.start(on: signalQueue) { [runtime] signal in
            TerminalSession.handle(signal, runtime: runtime)
        }
        if let descriptor = backend.inputDescriptor {
            let input = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: runtime.queue)
            input.setEventHandler { [runtime, input] in
                let read = runtime.readInput()
                // Readable with nothing to read: the terminal is gone.
                if read == 0, input.data == 0 {
                    input.cancel()
                    runtime.stop(status: 128 + SIGHUP)
                }
            }
            input.resume()
            sources.append(input)
        }
        runtime.start()
        let status = runtime.waitUntilStopped()
        for source in sources { source.cancel() }
        sources.removeAll()
        signals.stop()
        return status
    }

    private static func handle(_ signal: Int32, runtime: AppRuntime) {
        switch signal {
        case SIGWINCH:
            runtime.terminalResized()
        case SIGINT, SIGQUIT:
            // Ctrl-C in the external editor reaches us too; it belongs to the editor.
            if runtime.isEditingExternally { return }
            runtime.stop(status: 128 + signal)
        default:
            runtime.forwardToEditor(signal)
            runtime.stop(status: 128 + signal)
        }
    }
}
