import Dashboard
import Testing

/// Escape sequences the terminal library did not decode become their keys, or nothing.
@Suite struct EscapeSequenceTests {
    static func keys(_ text: String) -> [KeyEvent] {
        text.map { $0 == "\u{1B}" ? .escape : .character($0) }
    }

    @Test(arguments: [
        ("\u{1B}[4~", [KeyEvent.end]), ("\u{1B}[1~", [.home]), ("\u{1B}OF", [.end]), ("\u{1B}[H", [.home]),
        ("\u{1B}[5~", [.pageUp]), ("\u{1B}[6~", [.pageDown]), ("\u{1B}[1;5C", [.right]), ("\u{1B}[Z", [.backTab]),
        ("\u{1B}[3~", []), ("\u{1B}[200~x", [.character("x")]),
        ("a\u{1B}[4~b", [.character("a"), .end, .character("b")]),
        ("\u{1B}", [.escape]), ("\u{1B}x", [.escape, .character("x")]), ("\u{1B}[", [.escape, .character("[")]),
        ("[4~", [.character("["), .character("4"), .character("~")]),
    ])
    func aSequenceIsOneKeyOrNone(_ text: String, _ expected: [KeyEvent]) {
        #expect(KeyEvent.collapsingEscapeSequences(Self.keys(text)) == expected)
    }
}
