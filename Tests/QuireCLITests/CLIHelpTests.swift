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
        ] {
            #expect(help.stdout.contains("  \(command) "), "missing \(command)")
        }
        #expect(help.stdout.contains("Exit codes: 0 success"))
        #expect(!FileManager.default.fileExists(atPath: cli.database), "help does not create a database")
    }

    @Test(arguments: [
        "add", "list", "show", "edit", "done", "reopen", "rm", "restore", "search", "history", "export", "import",
    ])
    func everySubcommandHasHelp(_ command: String) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let help = try cli.run(command, "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: quire \(command)"))
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
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
