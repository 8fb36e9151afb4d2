import Testing

@testable import RawSQLite

/// The arena that bound texts are copied into keeps every copy whole until it is freed.
@Suite struct TextArenaTests {
    /// Texts filling several blocks, one longer than a block, and non-ASCII bytes: each copy
    /// reads back as its text after all of them are made, and an empty text has no copy.
    @Test func everyCopyStaysWholeUntilFreed() {
        var arena = TextArena()
        defer { arena.free() }
        var texts = (0..<2_000).map { "/drain/c\($0 % 7)/q\($0)/é\(String(repeating: "x", count: $0 % 40))" }
        texts.insert(String(repeating: "long", count: TextArena.blockSize), at: 700)
        var copies: [(UnsafePointer<CChar>, Int)] = []
        for text in texts {
            var text = text
            let copy = text.withUTF8 { arena.copy($0) }
            guard let copy else {
                Issue.record("no copy of a text of \(text.utf8.count) bytes")
                return
            }
            copies.append((copy, text.utf8.count))
        }
        let read = copies.map { pointer, count in
            pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }
        #expect(read == texts)
        var empty = ""
        #expect(empty.withUTF8 { arena.copy($0) } == nil)
    }
}
