import Testing

/// The five body merges an outside check found losing or repeating a line where both sides
/// change at or inside a run of identical lines (`../shared/fixtures/merge-runs.json`, issue 27):
/// base, local, remote, a correct clean merge (`git merge-file` agrees), and what Quire gave.
struct MergeRunFixture: Sendable, CustomTestStringConvertible {
    var note: String
    var base: String
    var local: String
    var remote: String
    var expected: String
    var quireGave: String
    var testDescription: String { note }

    static let all: [MergeRunFixture] = [
        MergeRunFixture(
            note: "clean merge; Quire repeats 'ok'",
            base: [
                "{\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "- [ ] call mom\n", "na\u{EF}ve fa\u{E7}ade\n", "{\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "{\n", "milk\n", "milk\n", "{\n", "ok\n", "ok\n",
                "ok\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "trailing space  \n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n",
                "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "ok\n",
                "trailing space  \n", "ok\n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "trailing space  \n", "{\n", "{",
            ].joined(),
            local: [
                "{\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "- [ ] call mom\n", "na\u{EF}ve fa\u{E7}ade\n", "{\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "{\n", "milk\n", "milk\n", "{\n", "ok\n", "ok\n",
                "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "milk\n",
                "trailing space  \n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n",
                "milk\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "ok\n", "trailing space  \n", "ok\n",
                "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "{\n", "{",
            ].joined(),
            remote: [
                "{\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "- [ ] call mom\n", "na\u{EF}ve fa\u{E7}ade\n", "{\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "{\n", "milk\n", "milk\n", "ok\n", "ok\n",
                "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "trailing space  \n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n",
                "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "ok\n",
                "trailing space  \n", "ok\n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "trailing space  \n", "{\n", "{",
            ].joined(),
            expected: [
                "{\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "- [ ] call mom\n", "na\u{EF}ve fa\u{E7}ade\n", "{\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "{\n", "milk\n", "milk\n", "ok\n", "trailing space  \n",
                "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "trailing space  \n", "milk\n",
                "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n",
                "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n",
                "na\u{EF}ve fa\u{E7}ade\n", "ok\n", "trailing space  \n", "ok\n", "na\u{EF}ve fa\u{E7}ade\n",
                "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "{\n", "{",
            ].joined(),
            quireGave: [
                "{\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "- [ ] call mom\n", "na\u{EF}ve fa\u{E7}ade\n", "{\n",
                "na\u{EF}ve fa\u{E7}ade\n", "milk\n", "milk\n", "{\n", "milk\n", "milk\n", "ok\n", "ok\n",
                "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "milk\n",
                "trailing space  \n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n",
                "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "na\u{EF}ve fa\u{E7}ade\n",
                "milk\n", "milk\n", "na\u{EF}ve fa\u{E7}ade\n", "ok\n", "trailing space  \n", "ok\n",
                "na\u{EF}ve fa\u{E7}ade\n", "na\u{EF}ve fa\u{E7}ade\n", "trailing space  \n", "{\n", "{",
            ].joined()),
        MergeRunFixture(
            note: "clean merge; Quire repeats '    return nil'",
            base: [
                "see above\n", "    return nil\n", "ok\n", "    return nil\n", "    return nil\n", "ok\n",
                "see above\n", "ok\n", "## Todo\n", "\n", "see above\n", "ok\n", "butter\n", "{\n", "## Todo\n", "ok\n",
                "trailing space  ",
            ].joined(),
            local: [
                "see above\n", "    return nil\n", "ok\n", "    return nil\n", "ok\n", "see above\n", "ok\n",
                "## Todo\n", "\n", "see above\n", "ok\n", "butter\n", "{\n", "## Todo\n", "ok\n", "trailing space  ",
            ].joined(),
            remote: [
                "see above\n", "{\n", "R1 added\n", "R2 new\n", "    return nil\n", "    return nil\n", "ok\n",
                "see above\n", "ok\n", "## Todo\n", "R3 new\n", "\n", "\n", "{\n", "## Todo\n", "ok\n",
                "trailing space  ",
            ].joined(),
            expected: [
                "see above\n", "{\n", "R1 added\n", "R2 new\n", "    return nil\n", "ok\n", "see above\n", "ok\n",
                "## Todo\n", "R3 new\n", "\n", "\n", "{\n", "## Todo\n", "ok\n", "trailing space  ",
            ].joined(),
            quireGave: [
                "see above\n", "{\n", "R1 added\n", "R2 new\n", "    return nil\n", "    return nil\n", "ok\n",
                "see above\n", "ok\n", "## Todo\n", "R3 new\n", "\n", "\n", "{\n", "## Todo\n", "ok\n",
                "trailing space  ",
            ].joined()),
        MergeRunFixture(
            note: "clean merge; Quire drops '    return nil'",
            base: [
                "    return nil\n", "milk\n", "    return nil\n", "1. first\n", "    return nil\n", "milk\n", "milk\n",
                "milk\n",
            ].joined(),
            local: [
                "milk\n", "    return nil\n", "1. first\n", "milk\n", "1. first\n", "    return nil\n", "milk\n",
                "milk\n", "milk\n",
            ].joined(),
            remote: [
                "milk\n", "    return nil\n", "R1 new\n", "R2 edit\n", "R3 added\n", "1. first\n", "    return nil\n",
                "milk\n", "milk\n", "milk\n", "milk",
            ].joined(),
            expected: [
                "milk\n", "    return nil\n", "R1 new\n", "R2 edit\n", "R3 added\n", "1. first\n", "milk\n",
                "1. first\n", "    return nil\n", "milk\n", "milk\n", "milk\n", "milk",
            ].joined(),
            quireGave: [
                "milk\n", "1. first\n", "milk\n", "R1 new\n", "R2 edit\n", "R3 added\n", "1. first\n",
                "    return nil\n", "milk\n", "milk\n", "milk\n", "milk",
            ].joined()),
        MergeRunFixture(
            note: "clean merge; Quire drops '## Todo'",
            base: [
                "## Todo\n", "> quote\n", "}\n", "## Todo\n", "{\n", "> quote\n", "## Todo\n", "## Todo\n", "## Todo\n",
                "## Todo\n", "}\n", "> quote\n", "}\n", "> quote\n", "}\n", "## Todo\n", "> quote\n", "}\n", "{\n",
                "## Todo\n",
            ].joined(),
            local: [
                "## Todo\n", "> quote\n", "}\n", "## Todo\n", "{\n", "> quote\n", "## Todo\n", "## Todo\n", "## Todo\n",
                "L1 new\n", "## Todo\n", "## Todo\n", "}\n", "> quote\n", "}\n", "> quote\n", "}\n", "## Todo\n",
                "> quote\n", "}\n", "{\n", "## Todo\n",
            ].joined(),
            remote: [
                "## Todo\n", "> quote\n", "}\n", "## Todo\n", "{\n", "> quote\n", "## Todo\n", "## Todo\n",
                "R1 \u{E4}nderung\n", "R2 edit\n", "## Todo\n", "## Todo\n", "## Todo\n", "}\n", "> quote\n", "}\n",
                "> quote\n", "}\n", "## Todo\n", "> quote\n", "}\n", "{\n", "## Todo\n",
            ].joined(),
            expected: [
                "## Todo\n", "> quote\n", "}\n", "## Todo\n", "{\n", "> quote\n", "## Todo\n", "## Todo\n",
                "R1 \u{E4}nderung\n", "R2 edit\n", "## Todo\n", "## Todo\n", "L1 new\n", "## Todo\n", "## Todo\n",
                "}\n", "> quote\n", "}\n", "> quote\n", "}\n", "## Todo\n", "> quote\n", "}\n", "{\n", "## Todo\n",
            ].joined(),
            quireGave: [
                "## Todo\n", "> quote\n", "}\n", "## Todo\n", "{\n", "> quote\n", "## Todo\n", "## Todo\n",
                "R1 \u{E4}nderung\n", "R2 edit\n", "## Todo\n", "L1 new\n", "## Todo\n", "## Todo\n", "}\n",
                "> quote\n", "}\n", "> quote\n", "}\n", "## Todo\n", "> quote\n", "}\n", "{\n", "## Todo\n",
            ].joined()),
        MergeRunFixture(
            note: "clean merge; Quire drops '}'",
            base: [
                "caf\u{E9}\n", "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "eggs\n", "}\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "caf\u{E9}\n", "}\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "\u{1F44D}\u{1F3FD} looks good\n", "eggs\n", "- [ ] call mom\n", "eggs\n", "caf\u{E9}\n",
                "}\n", "\u{1F44D}\u{1F3FD} looks good\n", "caf\u{E9}\n", "}\n", "}\n", "eggs\n", "}\n",
                "\u{1F44D}\u{1F3FD} looks good\n",
            ].joined(),
            local: [
                "caf\u{E9}\n", "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "eggs\n", "}\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "caf\u{E9}\n", "}\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "\u{1F44D}\u{1F3FD} looks good\n", "eggs\n", "- [ ] call mom\n", "eggs\n", "caf\u{E9}\n",
                "}\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n", "caf\u{E9}\n", "}\n", "}\n", "eggs\n", "}\n",
                "\u{1F44D}\u{1F3FD} looks good\n",
            ].joined(),
            remote: [
                "caf\u{E9}\n", "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "eggs\n", "}\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "caf\u{E9}\n", "}\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "\u{1F44D}\u{1F3FD} looks good\n", "eggs\n", "- [ ] call mom\n", "eggs\n", "caf\u{E9}\n",
                "R1 edit\n", "caf\u{E9}\n", "}\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n", "caf\u{E9}\n", "}\n",
                "}\n", "eggs\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n",
            ].joined(),
            expected: [
                "caf\u{E9}\n", "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "eggs\n", "}\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "caf\u{E9}\n", "}\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "\u{1F44D}\u{1F3FD} looks good\n", "eggs\n", "- [ ] call mom\n", "eggs\n", "caf\u{E9}\n",
                "R1 edit\n", "caf\u{E9}\n", "}\n", "}\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n", "caf\u{E9}\n",
                "}\n", "}\n", "eggs\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n",
            ].joined(),
            quireGave: [
                "caf\u{E9}\n", "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "caf\u{E9}\n", "- [ ] call mom\n", "- [ ] call mom\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "eggs\n", "}\n",
                "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n", "caf\u{E9}\n", "}\n", "- [ ] call mom\n", "}\n",
                "caf\u{E9}\n", "\u{1F44D}\u{1F3FD} looks good\n", "eggs\n", "- [ ] call mom\n", "eggs\n", "caf\u{E9}\n",
                "R1 edit\n", "caf\u{E9}\n", "}\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n", "caf\u{E9}\n", "}\n",
                "}\n", "eggs\n", "}\n", "\u{1F44D}\u{1F3FD} looks good\n",
            ].joined()),
    ]
}
