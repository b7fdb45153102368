import QuireCore
import Testing

/// `[[…]]` links read from a body (SPEC: Links), and the rewrite a rename makes.
@Suite struct WikiLinkTests {
    func texts(_ body: String) -> [String] { WikiLink.links(in: body).map(\.text) }

    @Test func linksAreReadInOrderEachKeyOnce() {
        #expect(texts("a [[One]] b [[ two ]] c [[one]] [[Two]]") == ["One", "two"])
        #expect(texts("[[0192a3b4-0000-7000-8000-00000000abcd]]") == ["0192a3b4-0000-7000-8000-00000000abcd"])
        #expect(WikiLink.links(in: "[[Straße Plan]]").first?.key == "straße plan", "ASCII letters fold, others stay")
        #expect(WikiLink(text: "0192A3B4-0000-7000-8000-00000000ABCD").isID)
        #expect(!WikiLink(text: "0192a3b4").isID)
    }

    @Test func whatIsNotALinkIsText() {
        #expect(texts("[[]] [[   ]] [[a\nb]] [one] [[x]y]] [[open") == [])
        #expect(texts("`[[code]]` and ``a `[[still code]]` b`` and [[real]]") == ["real"])
        #expect(texts("an unmatched ` before [[real]]") == ["real"])
        #expect(texts("```\n[[fenced]]\n```\n[[after]]") == ["after"])
        #expect(texts("~~~~ swift\n[[fenced]]\n~~~\n[[still fenced]]\n~~~~\n[[after]]") == ["after"])
        #expect(texts("```\n[[never closed]]") == [])
    }

    @Test func aRenameRewritesTheLinksByTheOldTitleAndNothingElse() {
        let body = "[[Old]] and [[ old ]]\n`[[Old]]`\n```\n[[Old]]\n```\n[[Older]] [[Old]]"
        #expect(
            WikiLink.replacing(key: "old", with: "New", in: body)
                == "[[New]] and [[New]]\n`[[Old]]`\n```\n[[Old]]\n```\n[[Older]] [[New]]")
        #expect(WikiLink.replacing(key: "gone", with: "New", in: body) == body)
        #expect(WikiLink.replacing(key: "日本", with: "Tokyo", in: "見て [[日本]]!") == "見て [[Tokyo]]!")
    }
}
