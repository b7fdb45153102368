import Dispatch
import Foundation
import TerminalUI

/// Connects a runtime to a real terminal: key input, resizes and the signals that end the app.
///
/// Create it before the terminal library starts: it sets the signals it handles to "ignore"
/// first, so curses leaves them alone and they arrive here through Dispatch instead.
public final class TerminalSession: @unchecked Sendable {
    private let signalQueue = DispatchQueue(label: "quire.signals")
    private var sources: [any DispatchSourceProtocol] = []
    private static let handled: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    public init() {
        for signal in TerminalSession.handled { Foundation.signal(signal, SIG_IGN) }
    }

    /// Runs the app until the person quits or a signal ends it; returns the exit status
    /// (0, or 128 + the signal). The caller then closes the backend.
    public func run(_ runtime: AppRuntime, backend: any TerminalBackend) -> Int32 {
        for signal in TerminalSession.handled {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: signalQueue)
            source.setEventHandler { [runtime] in
                TerminalSession.handle(signal, runtime: runtime)
            }
            source.resume()
            sources.append(source)
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
