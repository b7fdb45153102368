/// The benchmark's Markdown note: every element the item view renders, over and over, to 1 MB.
extension TUIBenchData {
    static let markdownBody: String = {
        let section = """
            ## Section

            A paragraph with *emphasis*, **strong**, `code`, ~~struck~~ and a [link](https://example.com/page)
            that runs over a few lines, as notes do, with 日本語 and 🙂 in it.

            - an item
            - [ ] a task
              - a nested item
            1. first
            2. second

            > a quote that says something worth keeping

            ```
            let code = "block"
            ```

            | name | count |
            |---|---:|
            | apples | 3 |

            ---


            """
        return String(repeating: section, count: (1 << 20) / section.utf8.count)
    }()
}
