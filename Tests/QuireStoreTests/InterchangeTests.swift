import Foundation
import QuireCore
import Testing

@testable import QuireStore

@Suite struct StoreTimeTests {
    @Test func formatsAndParsesTheCanonicalShapeExactly() {
        for milliseconds in stride(from: Int64(-86_400_000 * 400), to: 4_102_444_800_000, by: 7_777_777_777) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = StoreTime.string(from: date)
            #expect(text.count == 24)
            #expect(StoreTime.date(from: text) == date, "\(text)")
            #expect(Timestamp.date(from: text).map(StoreTime.string(from:)) == text)
        }
        #expect(StoreTime.string(from: Date(timeIntervalSince1970: 1_800_000_000.123)) == "2027-01-15T08:00:00.123Z")
        #expect(StoreTime.date(from: "2026-11-22T10:00:00+02:00") == Date(timeIntervalSince1970: 1_795_334_400))
        #expect(StoreTime.date(from: "2026-13-22T10:00:00.000Z") == nil)
    }
}

@Suite struct JSONTextTests {
    @Test func itemJSONMatchesTheCodableShape() throws {
        let item = Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", kind: .task, title: "Quote \" slash \\ tab \t é 😀",
            body: "line\nline\u{01}", tags: ["b", "a"], done: true,
            doneAt: Date(timeIntervalSince1970: 1_800_000_000.5), due: Day("2026-11-30"), priority: .high,
            pinned: true, createdAt: Date(timeIntervalSince1970: 1_800_000_000), rev: 4, syncState: .needsReview)
        let text = ItemJSON.string(item)
        let decoded = try JSONDecoder().decode(Item.self, from: Data(text.utf8))
        #expect(decoded == item)
        let fromCodable = try JSONSerialization.jsonObject(with: JSONEncoder().encode(item)) as? NSDictionary
        let fromWriter = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        #expect(fromCodable == fromWriter)
        #expect(text.hasPrefix("{\"id\":\"0193a9d2-7fff-7000-8000-00000000abcd\",\"kind\":\"task\""))
    }

    @Test func fieldChangesRoundTrip() throws {
        let changes: [Field: FieldChange] = [
            .title: FieldChange(from: .string("a\"b"), to: .string("c")),
            .tags: FieldChange(from: .null, to: .strings(["x", "y\n"])),
            .body: FieldChange(from: .sha256("abc"), to: .string("")),
            .done: FieldChange(from: .bool(false), to: .bool(true)),
        ]
        #expect(try JSONText.parseFieldChanges(JSONText.fieldChanges(changes)) == changes)
        #expect(
            JSONText.parseStrings(JSONText.strings(["plain", "with \"quote\"", "ü"])) == [
                "plain", "with \"quote\"", "ü",
            ])
        #expect(JSONText.parseStrings("[]") == [])
        #expect(JSONText.parseStrings("nope") == nil)
    }

    /// The direct reader and `JSONDecoder` agree on everything the writer makes, and text the
    /// writer would not make (spaces, other escapes) still reads through the fallback.
    @Test func theDirectReaderAgreesWithJSONDecoder() throws {
        var random = SeededRandom(seed: 20_261_122)
        let alphabet = Array("ab \"\\\n\r\t\u{01}\u{1f}é日😀/")
        func text() -> String {
            String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        func value() -> FieldValue {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &random))
            case 2: return .string(text())
            case 3: return .strings((0..<Int.random(in: 0...3, using: &random)).map { _ in text() })
            default: return .sha256(text())
            }
        }
        for _ in 0..<500 {
            var changes: [Field: FieldChange] = [:]
            for field in Field.allCases where Bool.random(using: &random) {
                changes[field] = FieldChange(from: value(), to: value())
            }
            let written = JSONText.fieldChanges(changes)
            #expect(try JSONText.parseFieldChanges(written) == changes, "\(written)")
            #expect(try JSONDecoder().decode([Field: FieldChange].self, from: Data(written.utf8)) == changes)
        }
        let spaced = #"{ "title" : { "to" : "b\u00e9" , "from" : null } }"#
        #expect(try JSONText.parseFieldChanges(spaced) == [.title: FieldChange(from: .null, to: .string("bé"))])
        #expect(throws: (any Error).self) { try JSONText.parseFieldChanges(#"{"title":{"from":null}}"#) }
        #expect(throws: (any Error).self) { try JSONText.parseFieldChanges(#"{"title":{"from":null,"to":"x"}}x"#) }
    }
}

@Suite struct JSONImportTests {
    @Test func readsExportedItemsWithDefaults() throws {
        let data = Data(
            """
            [{"id": "0193A9D2-7FFF-7000-8000-00000000ABCD", "kind": "task", "title": "Milk", "tags": ["a"], "done": true,
              "due": "2026-11-30", "priority": "high", "createdAt": "2026-11-22T10:00:00Z", "rev": 9, "syncState": "synced"},
             {"title": "Just a title"}]
            """.utf8)
        let entries = try JSONImport.entries(from: data)
        #expect(entries.count == 2)
        #expect(entries[0].id == "0193a9d2-7fff-7000-8000-00000000abcd")
        #expect(
            entries[0].kind == .task && entries[0].done && entries[0].priority == .high
                && entries[0].due == Day("2026-11-30"))
        #expect(entries[1] == ImportEntry(title: "Just a title"))
    }

    @Test(arguments: [
        ("[{\"title\": \"ok\"}, {\"title\": \"\"}]", "entry 2: the title is empty"),
        ("[{\"title\": \"ok\"}, {\"title\": \"x\", \"done\": 1}]", "entry 2: 'done' must be true or false"),
        ("[{\"title\": \"x\", \"due\": \"tomorrow\"}]", "entry 1: invalid date 'tomorrow': use YYYY-MM-DD"),
        (
            "[{\"title\": \"x\", \"priority\": \"urgent\"}]",
            "entry 1: invalid priority 'urgent': use none, low, medium or high"
        ),
        ("[{\"body\": \"no title\"}]", "entry 1: 'title' is missing"),
        ("[{\"title\": \"x\", \"id\": \"nope\"}]", "entry 1: 'nope' is not a UUID"),
        ("{\"title\": \"x\"}", "the file must hold a JSON array of items"),
        ("[\n{\"title\": \"x\"},\n{\"title\": oops}\n]", "line 3, column 11: not valid JSON"),
    ])
    func saysWhichEntryIsWrong(_ text: String, _ message: String) {
        #expect(throws: ImportError.self) { try JSONImport.entries(from: Data(text.utf8)) }
        do {
            _ = try JSONImport.entries(from: Data(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }
}

@Suite struct TaskwarriorImportTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func mapsTasksAndKeepsIdsStableAcrossImports() throws {
        let data = Data(
            """
            [{"id":1,"description":"Pay rent","entry":"20261101T090000Z","modified":"20261102T090000Z","status":"pending",
              "uuid":"5f3c8a1e-2b4d-4e6f-9a8b-7c6d5e4f3a2b","due":"20261130T230000Z","priority":"H","project":"home",
              "tags":["money"],"annotations":[{"entry":"20261101T100000Z","description":"ask about the deposit"}]},
             {"description":"Old thing","entry":"20250101T000000Z","end":"20250102T000000Z","status":"completed",
              "uuid":"11111111-2222-4333-8444-555555555555"},
             {"description":"Template","status":"recurring","uuid":"21111111-2222-4333-8444-555555555555"},
             {"description":"Gone","status":"deleted","uuid":"31111111-2222-4333-8444-555555555555","entry":"20250101T000000Z"}]
            """.utf8)
        let entries = try TaskwarriorImport.entries(from: data, timeZone: utc)
        #expect(entries.count == 3)
        let rent = entries[0]
        #expect(rent.title == "Pay rent" && rent.kind == .task && rent.priority == .high)
        #expect(rent.tags == ["money"] && rent.project == "home" && rent.body == "ask about the deposit")
        #expect(rent.due == Day("2026-11-30") && !rent.done)
        #expect(rent.createdAt == Date(timeIntervalSince1970: 1_793_523_600))
        let id = try #require(rent.id)
        #expect(UUIDv7Generator.isValid(id) && id.dropFirst(14).first == "7")
        #expect(try TaskwarriorImport.entries(from: data, timeZone: utc)[0].id == id)
        #expect(entries[1].done && entries[1].doneAt != nil)
        #expect(entries[2].deleted)
    }

    /// Importing the same export again must update its items in any later version of Quire: the
    /// ids made from Taskwarrior's uuids never change. Computed by hand from the mapping: the
    /// entry time in milliseconds, version 7, then the uuid's bits from its 14th hex digit on,
    /// the 17th masked to RFC 4122's variant.
    @Test(arguments: [
        ("5f3c8a1e-2b4d-4e6f-9a8b-7c6d5e4f3a2b", 1_793_523_600.0, "01a19656-4a80-7e6f-9a8b-7c6d5e4f3a2b"),
        ("11111111-2222-4333-C444-555555555555", 1_735_689_600.0, "01941f29-7c00-7333-8444-555555555555"),
    ])
    func idsMadeFromUUIDsNeverChange(_ uuid: String, _ entry: Double, _ id: String) {
        #expect(TaskwarriorImport.derivedID(uuid: uuid, entry: Date(timeIntervalSince1970: entry)) == id)
    }

    @Test func readsOneTaskPerLineAndNamesTheBadLine() throws {
        let lines = Data(
            """
            {"description":"a","uuid":"11111111-2222-4333-8444-555555555555","entry":"20250101T000000Z"},
            {"description":"b","uuid":"21111111-2222-4333-8444-555555555555","entry":"20250101T000000Z"}
            {"description":"c", broken
            """.utf8)
        do {
            _ = try TaskwarriorImport.entries(from: lines)
            Issue.record("accepted a broken line")
        } catch {
            #expect(error.location == "line 3, column 1")
        }
        let good = try TaskwarriorImport.entries(
            from: Data(lines.split(separator: 10).prefix(2).joined(separator: [10])))
        #expect(good.map(\.title) == ["a", "b"])
    }
}

@Suite struct MarkdownItemTests {
    @Test func exportReadsBackToTheSameFields() throws {
        let item = Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", kind: .task, title: "Buy: milk, eggs #1",
            body: "\nStarts with a blank line\n---\nand a rule", tags: ["home", "two words", "x,y"], done: true,
            doneAt: Date(timeIntervalSince1970: 1_800_000_100), due: Day("2026-11-30"), priority: .medium,
            pinned: true, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        let text = MarkdownItem.render(item)
        let entry = try MarkdownItem.parse(text)
        #expect(entry.id == item.id && entry.kind == .task && entry.title == item.title && entry.body == item.body)
        #expect(Tags.normalize(entry.tags) == item.tags && entry.done && entry.doneAt == item.doneAt)
        #expect(entry.due == item.due && entry.priority == .medium && entry.pinned)
        #expect(entry.createdAt == item.createdAt && entry.updatedAt == item.updatedAt)
        #expect(MarkdownItem.fileName(for: item) == "buy-milk-eggs-1-0193a9d2-7fff-7000-8000-00000000abcd.md")
    }

    @Test func readsBlockListsCommentsAndFilesWithoutHeaders() throws {
        let entry = try MarkdownItem.parse(
            "---\n# a comment\ntitle: 'It''s here'\ntags:\n  - one\n  - \"two\"\n---\nBody")
        #expect(entry.title == "It's here" && entry.tags == ["one", "two"] && entry.body == "Body")
        let heading = try MarkdownItem.parse("# Trip plan\n\nDay one", fallbackTitle: "trip")
        #expect(heading.title == "Trip plan" && heading.body == "Day one")
        let plain = try MarkdownItem.parse("just text", fallbackTitle: "notes")
        #expect(plain.title == "notes" && plain.body == "just text")
    }

    @Test func namesTheBadLine() {
        do {
            _ = try MarkdownItem.parse("---\ntitle: x\npriority: urgent\n---\n")
            Issue.record("accepted a bad priority")
        } catch {
            #expect(error.description == "line 3: invalid priority 'urgent': use none, low, medium or high")
        }
        #expect(throws: ImportError.self) { try MarkdownItem.parse("---\nkind: note\n---\nbody") }
    }
}
