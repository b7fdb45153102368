/// What the app needs from a terminal: its size, drawing changed cells, reading keys, and
/// handing the terminal to another program for a while.
///
/// Implementations are confined to one queue (the app's UI queue); they are not thread-safe.
public protocol TerminalBackend: AnyObject {
    /// The terminal's size as last measured.
    var size: Size { get }

    /// Draws the given cells, places (or hides, when nil) the cursor, and shows the result.
    func draw(_ updates: [CellUpdate], cursor: Point?)

    /// Forgets what the screen shows; the next `draw` receives every cell and must clear first.
    func invalidate()

    /// The next key or paste if one is waiting, without blocking.
    func readInput() -> TerminalInput?

    /// A file descriptor that becomes readable when input arrives (nil when keys come another way).
    var inputDescriptor: Int32? { get }

    /// Measures the terminal again after it was resized and returns the new size.
    func refreshSize() -> Size

    /// Gives the terminal back to the shell state, so another program (an editor) can use it.
    func suspend()

    /// Takes the terminal again after `suspend`; the caller redraws everything.
    func resume()

    /// Hands the terminal back to the shell and stops the process, as Ctrl-Z does in a shell;
    /// returns once the shell continues it (`fg`). The caller then redraws everything.
    func suspendToShell()

    /// Restores the terminal for good. Safe to call more than once.
    func close()
}
