/// What the terminal sent: a key, or text the person pasted (which is text wherever it lands,
/// never a run of key presses).
public enum TerminalInput: Hashable, Sendable {
    case key(Key)
    case paste(String)
}
