import Foundation
import QuireCore
import QuireTestSupport
import TerminalUI
import Testing

@testable import QuireUI

/// The item view's files: where each stands, the attach and save prompts with path completion,
/// opening and saving the selected file, and the question before a file is replaced.
@Suite struct AttachmentViewTests {
    static func file(_ name: String, _ size: Int64, _ digit: Character) -> AttachedFile {
        AttachedFile(
            name: name, size: size, mediaType: Attachments.mediaType(forName: name),
            hash: String(repeating: digit, count: 64))
    }

    static let files = [
        file("boarding-pass.pdf", 48_000, "1"), file("hotel.pdf", 230_000, "2"),
        file("itinerary.txt", 2_100, "3"), file("map.png", 5_600_000, "4"),
        file("photos.zip", 40_000_000, "5"), file("video.mp4", 300_000_000, "6"),
    ]

    /// One file in each state.
    static let states: [String: AttachmentState] = [
        files[0].hash: .here, files[1].hash: .waitingToUpload, files[2].hash: .uploading(percent: 40),
        files[3].hash: .waitingToDownload, files[4].hash: .downloading(percent: 25),
        files[5].hash: .refused(reason: "the file is larger than the server's limit of 100 MB"),
    ]

    static let trip = Item(
        id: Fixtures.id(1), kind: .note, title: "Trip to Lyon", body: "Tickets and the map.", attachments: files,
        createdAt: Fixtures.created, rev: 1, syncState: .synced)

    /// The item view of the trip, its states read.
    static func itemView(_ size: Size, states: [String: AttachmentState] = states) -> Harness {
        var harness = Harness(size: size, items: [trip])
        harness.press(.enter)
        harness.send(.attachmentStatesRead(AttachmentStates(itemID: trip.id, byHash: states)))
        return harness
    }

    // MARK: - States

    @Test(arguments: [80, 40]) func theItemViewShowsEveryFileWithItsState(width: Int) {
        let harness = Self.itemView(Size(width: width, height: 24))
        let text = harness.text
        // A narrow view wraps a long line onto the next row: read it as one.
        let joined = text.replacingOccurrences(of: "\n ", with: " ")
        for phrase in [
            "here", "here, not uploaded yet", "uploading 40%", "waiting to download", "downloading 25%", "refused:",
        ] {
            #expect(joined.contains(phrase), "\(phrase) at \(width) columns:\n\(text)")
        }
        assertSnapshot(text, named: "item-view-files-\(width)")
    }

    @Test func openingTheItemViewReadsItsFilesStates() {
        var harness = Harness(size: .standard, items: [Self.trip])
        harness.press(.enter)
        #expect(harness.effects.contains(.attachments(.readStates(itemID: Self.trip.id))))
        #expect(harness.text.contains("📎 map.png  5.3 MB"), "names and sizes before the states are read")
        #expect(!harness.text.contains("waiting to download"))
    }

    @Test func aStoreChangeReadsTheStatesAgainAndTheViewFollows() {
        var harness = Self.itemView(.standard)
        harness.effects = []
        harness.send(.storeChanged)
        #expect(harness.effects.contains(.attachments(.readStates(itemID: Self.trip.id))))
        var moved = Self.states
        moved[Self.files[2].hash] = .uploading(percent: 80)
        harness.send(.attachmentStatesRead(AttachmentStates(itemID: Self.trip.id, byHash: moved)))
        #expect(harness.text.contains("uploading 80%"))
        #expect(!harness.text.contains("uploading 40%"))
    }

    @Test func statesOfAnotherItemAreNotShown() {
        var harness = Self.itemView(.standard, states: [:])
        harness.send(
            .attachmentStatesRead(AttachmentStates(itemID: Fixtures.id(9), byHash: [Self.files[3].hash: .here])))
        #expect(harness.state.attachmentStates?.itemID == Self.trip.id)
    }

    @Test func theRuntimeWatchesOnlyWhileAFileMoves() {
        #expect(Self.itemView(.standard).state.attachmentsToWatch == Self.trip.id)
        let settled = Dictionary(uniqueKeysWithValues: Self.files.map { ($0.hash, AttachmentState.here) })
        #expect(Self.itemView(.standard, states: settled).state.attachmentsToWatch == nil)
        var harness = Self.itemView(.standard)
        harness.press(.escape)
        #expect(harness.state.attachmentsToWatch == nil, "not on the list")
    }

    @Test func theHintsOfferOpenAndSaveOnlyForAnItemWithFiles() {
        let with = Keymap.detailHints(for: Self.trip).map(\.label)
        #expect(with.contains("open file") && with.contains("save file") && with.contains("attach"))
        var bare = Self.trip
        bare.attachments = []
        let without = Keymap.detailHints(for: bare).map(\.label)
        #expect(!without.contains("open file") && !without.contains("save file"))
        #expect(without.contains("attach"))
    }

    // MARK: - Selecting, opening, saving

    @Test func tabSelectsTheNextFileAndOOpensIt() {
        var harness = Self.itemView(.standard)
        harness.press(.character("o"))
        #expect(harness.effects.last == .attachments(.open(Self.files[0])))
        harness.press(.tab)
        #expect(harness.text.contains("› 📎 hotel.pdf"), "\(harness.text)")
        #expect(harness.state.notice?.text.hasPrefix("File 2/6: hotel.pdf") == true)
        harness.press(.character("o"))
        #expect(harness.effects.last == .attachments(.open(Self.files[1])))
        for _ in 0..<5 { harness.press(.tab) }
        #expect(harness.state.selectedAttachment == 0, "wraps around")
    }

    @Test func saveAsksForAPathStartingWithTheNameAndAsksBeforeReplacing() {
        var harness = Self.itemView(.standard)
        harness.press(.character("w"))
        #expect(harness.state.keyContext == .prompt)
        #expect(harness.state.prompt?.field.text == "boarding-pass.pdf")
        #expect(harness.text.contains(" save to: boarding-pass.pdf"))
        harness.press(.enter)
        let file = Self.files[0]
        #expect(harness.effects.last == .attachments(.save(file, to: "boarding-pass.pdf", replacing: false)))
        #expect(harness.state.prompt == nil)

        harness.send(.attachmentAnswered(.exists(file, path: "/home/ada/boarding-pass.pdf")))
        #expect(harness.text.contains("Replace /home/ada/boarding-pass.pdf?"))
        harness.effects = []
        harness.press(.character("n"))
        #expect(harness.effects.isEmpty, "no: nothing is written")
        harness.send(.attachmentAnswered(.exists(file, path: "/home/ada/boarding-pass.pdf")))
        harness.press(.character("y"))
        #expect(
            harness.effects.last == .attachments(.save(file, to: "/home/ada/boarding-pass.pdf", replacing: true)))
    }

    @Test func aFileNotHereIsFetchedThenTheRequestRunsAgain() {
        var harness = Self.itemView(.standard)
        let request = AttachmentRequest.open(Self.files[3])
        harness.send(.attachmentAnswered(.fetching(request)))
        #expect(harness.state.notice?.text == "Downloading map.png…")
        harness.effects = []
        harness.send(.attachmentAnswered(.fetched(request)))
        #expect(harness.effects.first == .attachments(request))
    }

    @Test func aFailureIsOneLineInTheStatusBar() {
        var harness = Self.itemView(.standard)
        harness.send(.attachmentAnswered(.failed("Cannot open map.png: 'nope' was not found")))
        #expect(harness.state.notice == .error("Cannot open map.png: 'nope' was not found"))
        #expect(harness.text.contains("Cannot open map.png"))
    }

    // MARK: - The attach prompt

    @Test func attachTakesAPathAndEnterAsksTheRuntimeToAttachIt() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"))
        #expect(harness.text.contains(" attach file:"))
        harness.type("~/tickets.pdf")
        harness.press(.enter)
        #expect(harness.effects.last == .attachments(.attach(path: "~/tickets.pdf", itemID: Self.trip.id)))
        #expect(harness.state.prompt == nil)
        harness.send(.attachmentAnswered(.attached(name: "tickets.pdf", itemID: Self.trip.id)))
        #expect(harness.state.notice?.text == "Attached tickets.pdf")
    }

    @Test func anEmptyPathIsAnErrorThatKeepsThePromptAndChangesNothing() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"))
        harness.effects = []
        harness.press(.character(" "), .enter)
        #expect(harness.effects.isEmpty)
        #expect(harness.state.prompt != nil)
        #expect(harness.state.notice?.isError == true)
    }

    @Test func escLeavesTheAttachPromptChangingNothing() {
        var harness = Self.itemView(.standard)
        let query = harness.state.list.query
        harness.press(.character("a"))
        harness.type("notes.txt")
        harness.effects = []
        harness.press(.escape)
        #expect(harness.effects.isEmpty)
        #expect(harness.state.prompt == nil)
        #expect(harness.state.list.query == query)
        if case .detail = harness.state.screen {} else { Issue.record("left the item view") }
    }

    @Test func arrowsInAFilePromptDoNotMoveTheListUnderTheItemView() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"), .down, .up)
        #expect(harness.state.list.selectedItem?.id == Self.trip.id)
        #expect(harness.state.prompt != nil)
    }

    @Test func attachingIsRefusedInTheTrash() {
        var trashed = Self.trip
        trashed.deleted = true
        var harness = Harness(size: .standard, items: [trashed])
        harness.press(.character("T"), .enter, .character("a"))
        #expect(harness.state.prompt == nil)
    }

    // MARK: - Path completion

    @Test func tabAsksForTheTypedPathsCompletions() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"))
        harness.type("~/Do")
        harness.press(.tab)
        #expect(harness.effects.last == .complete(.path, prefix: "~/Do"))
    }

    @Test func oneCandidateFillsThePathSeveralFillWhatTheyShareAndAreListed() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"))
        harness.type("~/Do")
        harness.send(.completionsFound(.path, prefix: "~/Do", ["Documents/", "Downloads/"]))
        #expect(harness.state.prompt?.field.text == "~/Do")
        #expect(harness.state.notice?.text == "Documents/ Downloads/")
        harness.type("cu")
        harness.send(.completionsFound(.path, prefix: "~/Docu", ["Documents/"]))
        #expect(harness.state.prompt?.field.text == "~/Documents/")
        harness.type("trip")
        harness.send(.completionsFound(.path, prefix: "~/Documents/trip", ["trip-a.pdf", "trip-b.pdf"]))
        #expect(harness.state.prompt?.field.text == "~/Documents/trip-")
    }

    @Test func aLateOrEmptyAnswerChangesNoText() {
        var harness = Self.itemView(.standard)
        harness.press(.character("a"))
        harness.type("~/Dow")
        harness.send(.completionsFound(.path, prefix: "~/Do", ["Documents/"]))
        #expect(harness.state.prompt?.field.text == "~/Dow", "typed on meanwhile")
        harness.send(.completionsFound(.path, prefix: "~/Dow", []))
        #expect(harness.state.prompt?.field.text == "~/Dow")
        #expect(harness.state.notice?.text == "No file or folder starts with “Dow”")
    }

    @Test func pathsSplitAtTheirLastSlash() {
        #expect(PathCompletion.split("~/Docs/tri") == ("~/Docs/", "tri"))
        #expect(PathCompletion.split("notes") == ("", "notes"))
        #expect(PathCompletion.split("/") == ("/", ""))
    }

    @Test func pathsResolveTildeAndRelativeParts() {
        let resolve = { PathCompletion.resolve($0, home: "/home/ada", workingDirectory: "/work/here") }
        #expect(resolve("~") == "/home/ada")
        #expect(resolve("~/a.pdf") == "/home/ada/a.pdf")
        #expect(resolve("/etc/hosts") == "/etc/hosts")
        #expect(resolve("docs/a.pdf") == "/work/here/docs/a.pdf")
        #expect(resolve("") == "/work/here")
        #expect(resolve("~ada/x") == "/work/here/~ada/x", "only ~ and ~/ are home")
    }

    @Test func candidatesMarkFoldersAndHideDotFilesUnlessAsked() {
        let entries = [
            (name: "trip.pdf", isFolder: false), (name: "travel", isFolder: true), (name: ".trash", isFolder: true),
            (name: "notes", isFolder: false),
        ]
        #expect(PathCompletion.candidates("tr", among: entries) == ["travel/", "trip.pdf"])
        #expect(PathCompletion.candidates(".", among: entries) == [".trash/"])
        #expect(PathCompletion.candidates("", among: entries) == ["notes", "travel/", "trip.pdf"])
        #expect(PathCompletion.completed("~", candidates: []) == "~/")
        #expect(PathCompletion.completed("x", candidates: []) == nil)
    }
}
