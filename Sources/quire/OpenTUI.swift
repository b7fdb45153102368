/// Opens the full-screen app; `quire` with no subcommand lands here.
///
/// Until the TUI exists, prints a short welcome and the CLI help.
func openTUI(help: String) throws {
    print("Quire: notes and tasks for the terminal. The full-screen app is on its way; meanwhile the CLI does it all.\n")
    print(help)
}
