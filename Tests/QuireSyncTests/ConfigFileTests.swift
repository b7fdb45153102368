import Foundation
import QuireCore
import Testing

@testable import QuireSync

/// The config reader: the subset Quire writes reads back exactly; anything else is an error
/// naming its line, for any input at all.
@Suite struct ConfigFileTests {
    @Test func readsTheSubsetWithCommentsBlankLinesCRLFAndBothKindsOfString() throws {
        let text =
            "# Quire\r\n\r\n[remote]  # the server\r\nurl = \"https://example.org/q\\u00e9\\t\\\"x\\\"\" # note\r\n\n[ other ]\nname='C:\\\\path # not a comment'\n"
        let file = try ConfigFile(parsing: text)
        #expect(file.value("url", in: "remote") == "https://example.org/qé\t\"x\"")
        #expect(file.value("name", in: "other") == #"C:\\path # not a comment"#)
        #expect(file.value("url", in: "other") == nil)
        #expect(file.entries.map(\.line) == [4, 7])
    }

    @Test func everyLineOutsideTheSubsetIsAnErrorNamingThatLine() {
        let cases: [(String, String)] = [
            ("url = https://example.org", "quoted string"),
            ("url = \"https://example.org", "does not close"),
            ("url \"x\"", "needs '='"),
            ("= \"x\"", "needs a name"),
            ("url = \"x\" y", "more text after the value"),
            ("url = \"a\\qb\"", "unknown escape"),
            ("url = \"\\u12\"", "short \\u escape"),
            ("url = \"\\uD800\"", "invalid \\u escape"),
            ("url = \"\"\"x\"\"\"", "multi-line"),
            ("url = '''x'''", "multi-line"),
            ("url = \"a\u{1}b\"", "control character"),
            ("url = 8080", "quoted string"),
            ("url = [\"a\"]", "quoted string"),
            ("[remote", "needs ']'"),
            ("[[remote]]", "array of tables"),
            ("[remote] x", "more text after the section name"),
            ("remote.url = \"x\"", "needs '='"),
            ("url = \"a\"\nurl = \"b\"", "sets 'url' again (first set on line 2)"),
            ("[remote]\n[remote]", "repeats the section"),
        ]
        for (body, message) in cases {
            let text = "[remote]\n" + body + "\n# end\n"
            #expect(throws: ConfigFileError.self, "\(body)") { try ConfigFile(parsing: text) }
            do {
                _ = try ConfigFile(parsing: text)
            } catch {
                #expect(error.line >= 2, "\(body): \(error)")
                #expect(error.description.hasPrefix("line \(error.line) "), "\(body): \(error)")
                #expect(error.description.contains(message), "\(body): \(error)")
                #expect(!error.description.contains("\n"))
            }
        }
        do {
            _ = try ConfigFile(parsing: Data([0x5B, 0x61, 0x5D, 0x0A, 0x6B, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22]))
            Issue.record("invalid UTF-8 was read")
        } catch {
            #expect(error.description == "line 2 is not valid UTF-8")
        }
    }

    @Test func anUnknownKeyIsAnErrorNotAMissingSetting() throws {
        let file = try ConfigFile(parsing: "[remote]\nurll = \"https://example.org\"\n")
        #expect(throws: ConfigFileError(line: 2, "has the unknown key 'urll' in [remote]; known keys there: url")) {
            try file.checkKeys(["remote": ["url"]])
        }
        #expect(throws: ConfigFileError.self) { try ConfigFile(parsing: "url = \"x\"").checkKeys(["remote": ["url"]]) }
        try ConfigFile(parsing: "[remote]\nurl = \"x\"").checkKeys(["remote": ["url"]])
    }

    @Test func syncSettingsCheckNamesTheFileAndTheLine() throws {
        let folder = NSTemporaryDirectory() + "quire-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = SyncSettings(configPath: folder + "/config.toml", credentialsPath: folder + "/credentials")
        try settings.check()
        try settings.setRemote(SyncRemote(url: "http://127.0.0.1:8080/q?a='b'#c", token: "qt_token"))
        try settings.check()
        #expect(settings.remote() == SyncRemote(url: "http://127.0.0.1:8080/q?a='b'#c", token: "qt_token"))

        try Data("# mine\n[remote]\nurl = \"http://127.0.0.1:8080\"\ntimeout = \"5\"\n".utf8).write(
            to: URL(fileURLWithPath: settings.configPath))
        do {
            try settings.check()
            Issue.record("an unknown key passed")
        } catch {
            #expect(
                error.description
                    == "\(settings.configPath): line 4 has the unknown key 'timeout' in [remote]; known keys there: live, url"
            )
        }

        // `live` takes "on" or "off"; anything else is named, and the stream stays on by default.
        #expect(settings.liveHints)
        try Data("[remote]\nurl = \"http://127.0.0.1:8080\"\nlive = \"off\"\n".utf8).write(
            to: URL(fileURLWithPath: settings.configPath))
        try settings.check()
        #expect(!settings.liveHints)
        try Data("[remote]\nlive = \"sometimes\"\n".utf8).write(to: URL(fileURLWithPath: settings.configPath))
        #expect(throws: SyncSettingsError.self) { try settings.check() }
    }

    /// Random and mutated files: the reader answers or throws a one-line error naming a line
    /// of the input, and what it reads survives being written back.
    @Test func fuzzedInputNeverCrashesAndEveryErrorNamesALine() throws {
        var random = SeededRandom(seed: 16)
        let seeds = [
            "# Quire\n[remote]\nurl = \"https://example.org\"\n",
            "[remote]\r\ntoken = 'qt_abc'  # private\r\n",
            "[a]\nk = \"\\u00e9\\U0001F600\\n\\t\\\\\"\n[b]\nk-2_x = ''\n",
        ]
        let alphabet: [UInt8] =
            Array("[]=\"'\\#\n\r\t .-_azAZ09uU".utf8) + [0x00, 0x01, 0x7F, 0xC3, 0xA9, 0xFF, 0xE2, 0x80]
        var parsed = 0
        var refused = 0
        for round in 0..<20_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
                case 1 where position < bytes.count: bytes.remove(at: position)
                case 2 where position < bytes.count: bytes[position] = alphabet.randomElement(using: &random)!
                default: bytes = Array(bytes.prefix(position))
                }
            }
            if round % 10 == 0 {
                bytes = (0..<Int.random(in: 0...80, using: &random)).map { _ in alphabet.randomElement(using: &random)!
                }
            }
            let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
            do {
                let file = try ConfigFile(parsing: Data(bytes))
                parsed += 1
                // Written back in Quire's form (keys outside any section first), it reads the same.
                var rewritten = ""
                for section in [""] + Set(file.entries.map(\.section)).subtracting([""]).sorted() {
                    if !section.isEmpty { rewritten += "[\(section)]\n" }
                    for entry in file.entries where entry.section == section {
                        #expect((1...lines).contains(entry.line))
                        rewritten += "\(entry.key) = \(ConfigFile.quoted(entry.value))\n"
                    }
                }
                let again = try ConfigFile(parsing: rewritten)
                for entry in file.entries {
                    #expect(again.value(entry.key, in: entry.section) == entry.value, "\(bytes)")
                }
            } catch {
                refused += 1
                #expect((1...lines).contains(error.line), "\(error) for \(bytes)")
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
        #expect(parsed > 1_000 && refused > 1_000, "the fuzz reaches both outcomes: \(parsed) read, \(refused) refused")
    }

    @Test func anyTextQuotedReadsBackAsItself() throws {
        var random = SeededRandom(seed: 7)
        let pool: [Unicode.Scalar] = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "é", "\u{1F600}", "'", "#", " ",
        ]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &random) { text.append(pool.randomElement(using: &random)!) }
            let value = String(text)
            let file = try ConfigFile(parsing: "[remote]\nurl = \(ConfigFile.quoted(value))\n")
            #expect(file.value("url", in: "remote") == value)
        }
    }
}
