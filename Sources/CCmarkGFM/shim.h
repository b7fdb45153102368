#ifndef QUIRE_CCMARKGFM_SHIM_H
#define QUIRE_CCMARKGFM_SHIM_H
// cmark-gfm for Swift: the CommonMark parser with GitHub's extensions (tables, task lists,
// strikethrough, autolinks). Everything here is static inline: a system library target has no
// C sources.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stddef.h>

/// Parses `length` bytes of Markdown into a document with the GitHub extensions attached.
/// The caller frees the result with cmark_node_free. NULL when an extension is missing.
static inline cmark_node *quire_markdown_parse(const char *text, size_t length) {
    cmark_gfm_core_extensions_ensure_registered();
    int options = CMARK_OPT_DEFAULT;
    cmark_parser *parser = cmark_parser_new(options);
    if (parser == NULL) return NULL;
    static const char *const names[] = {"table", "tasklist", "strikethrough", "autolink"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        cmark_syntax_extension *extension = cmark_find_syntax_extension(names[i]);
        if (extension == NULL || !cmark_parser_attach_syntax_extension(parser, extension)) {
            cmark_parser_free(parser);
            return NULL;
        }
    }
    cmark_parser_feed(parser, text, length);
    cmark_node *document = cmark_parser_finish(parser);
    cmark_parser_free(parser);
    return document;
}
#endif
