import Foundation

/// A terminal in memory: keeps the screen as a `Buffer`, so tests read what a person would see.
///
/// It applies the updates it is given exactly as a real terminal would, so a bug in the diff
/// shows up as a wrong screen. Thread-safe: the runtime draws on its queue while tests read.
public final class TestBackend: TerminalBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var _size: Size
    private var _screen: Buffer
    private var _cursor: Point?
    private var _frames = 0
    private var _lastUpdateCount = 0
    private var _input: [TerminalInput] = []
    private var _suspended = false
    private var _closed = false
    private var _log: [String] = []

    public init(size: Size) {
        _size = size
        _screen = Buffer(size: size)
    }

    // MARK: - What tests read and change

    public var screen: Buffer { lock.withLock { _screen } }
    public var text: String { screen.text }
    public var cursor: Point? { lock.withLock { _cursor } }
    /// How many frames were drawn.
    public var frames: Int { lock.withLock { _frames } }
    /// How many cells the last frame drew.
    public var lastUpdateCount: Int { lock.withLock { _lastUpdateCount } }
    public var isSuspended: Bool { lock.withLock { _suspended } }
    public var isClosed: Bool { lock.withLock { _closed } }
    /// `suspend`, `resume`, `stop` (for the shell), `invalidate` and `close` calls, in order.
    public var log: [String] { lock.withLock { _log } }

    /// Changes the size as a window manager would; the app learns it through `refreshSize`.
    public func resize(to size: Size) {
        lock.withLock { _size = size }
    }

    /// Queues keys for `readInput`.
    public func type(_ keys: [Key]) {
        lock.withLock { _input += keys.map(TerminalInput.key) }
    }

    /// Queues text as a terminal in bracketed-paste mode sends a paste: one piece of text.
    public func paste(_ text: String) {
        lock.withLock { _input.append(.paste(text)) }
    }

    // MARK: - TerminalBackend

    public var size: Size { lock.withLock { _size } }

    public func draw(_ updates: [CellUpdate], cursor: Point?) {
        lock.withLock {
            if _screen.size != _size { _screen = Buffer(size: _size) }
            _screen.apply(updates)
            _cursor = cursor
            _frames += 1
            _lastUpdateCount = updates.count
        }
    }

    public func invalidate() {
        lock.withLock {
            _screen = Buffer(size: _size)
            _log.append("invalidate")
        }
    }

    public func readInput() -> TerminalInput? {
        lock.withLock { _input.isEmpty ? nil : _input.removeFirst() }
    }

    public var inputDescriptor: Int32? { nil }

    public func refreshSize() -> Size { size }

    public func suspend() {
        lock.withLock {
            _suspended = true
            _log.append("suspend")
        }
    }

    public func resume() {
        lock.withLock {
            _suspended = false
            _log.append("resume")
        }
    }

    /// Logs `stop` between a suspend and a resume; the process goes on at once.
    public func suspendToShell() {
        suspend()
        lock.withLock { _log.append("stop") }
        resume()
    }

    public func close() {
        lock.withLock {
            _closed = true
            _log.append("close")
        }
    }
}
