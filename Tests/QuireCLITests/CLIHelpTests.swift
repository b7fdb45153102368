import Foundation
import Testing

@Suite struct CLIHelpTests {
    @Test func rootHelpListsEveryLocalCommand() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let help = try cli.run("--help")
        #expect(help.status == 0 && help.stderr.isEmpty)
        for command in [
            "add", "list", "show", "edit", "done", "reopen", "rm", "restore", "search", "history", "export", "import",
            "undo", "attach", "attachments", "attachment", "detach",
        ] {
            #expect(help.stdout.contains("  \(command) "), "missing \(command)")
        }
        #expect(help.stdout.contains("Exit codes: 0 success"))
        #expect(!FileManager.default.fileExists(atPath: cli.database), "help does not create a database")
    }

    @Test(arguments: [
        "add", "list", "show", "edit", "done", "reopen", "rm", "restore", "search", "history", "export", "import",
        "undo", "next", "agenda", "encryption", "attach", "attachments", "detach",
    ])
    func everySubcommandHasHelp(_ command: String) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let help = try cli.run(command, "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: quire \(command)"))
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
    }

    /// Help is read in a pipe or a terminal of any width, and ArgumentParser wraps each line we
    /// write at that width. A sentence we broke by hand as well then reads "…works offline" /
    /// "on" / "the local store…": a short line whose next word would have fitted on it.
    @Test(arguments: [
        "", "add", "list", "show", "edit", "done", "reopen", "rm", "restore", "search", "history", "export",
        "import", "undo", "sync", "status", "conflicts", "resolve", "remote", "next", "agenda", "encryption",
        "encryption enable", "encryption unlock", "attach", "attachments", "attachment", "detach",
    ])
    func helpSentencesAreNotBrokenTwice(_ command: String) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let help = try cli.run(
            command.isEmpty ? ["--help"] : command.split(separator: " ").map(String.init) + ["--help"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (line, next) in zip(lines, lines.dropFirst()) {
            // Examples and option rows are indented; sentences and entries end with "." or ":".
            guard !line.isEmpty, !next.isEmpty, !line.hasPrefix(" "), !next.hasPrefix(" "), !line.hasSuffix("."),
                !line.hasSuffix(":"),
                let word = next.split(separator: " ").first
            else { continue }
            #expect(
                line.count + 1 + word.count > 76, "quire \(command) --help breaks a sentence: \"\(line)\" / \"\(next)\""
            )
        }
    }

    @Test func versionIsPrintedWithoutTouchingTheStore() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let version = try cli.run("--version")
        #expect(version.status == 0 && version.stderr.isEmpty)
        #expect(
            version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let script = try cli.run("--generate-completion-script", shell)
        #expect(script.status == 0)
        #expect(script.stdout.contains("quire") && script.stdout.contains("import"))
    }
}
