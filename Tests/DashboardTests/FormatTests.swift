import RTDBCore
import Testing

@testable import Dashboard

/// Text that does not fit is cut where a person can tell: with an ellipsis, at a field boundary,
/// never inside a number; a path keeps its end.
struct FormatTests {
    @Test func pathsAreCutInTheMiddle() {
        let path = "/notes/morgan/-P79MVk37rhO8teM_XlU"
        let fitted = Format.fitMiddle(path, 20)
        #expect(CellGrid.columns(of: fitted) == 20)
        #expect(fitted.hasPrefix("/note") && fitted.contains("…") && fitted.hasSuffix("teM_XlU"), "\(fitted)")
        #expect(Format.fitMiddle("/a/b", 8) == "/a/b    ")
    }

    @Test func valuesAreNeverCutInside() {
        #expect(Format.cutAtBoundary("since 20:38:54 (15s)", columns: 13) == "since")
        #expect(Format.cutAtBoundary("up 874 B  down 2 KiB", columns: 12) == "up 874 B")
        #expect(Format.cutAtBoundary("up 874 B  down 2 KiB", columns: 7) == "up")
        #expect(Format.cutAtBoundary("rules refused the write", columns: 16) == "rules refused")
        #expect(Format.cutAtBoundary("20:38:54", columns: 5) == nil)
    }

    /// Was: `since 20:38:5`, `± 20 m`, `up 874 B  down` with nothing to say text was cut.
    @Test func aLineThatDoesNotFitEndsInAnEllipsis() {
        var grid = CellGrid(width: 30, height: 1)
        _ = grid.put(
            [Segment("● connected  "), Segment("since 20:38:54 (15s)")], x: 0, y: 0, limit: 30, glyphs: .unicode)
        #expect(grid.line(0) == "● connected  …", "\(grid.line(0))")
        var wide = CellGrid(width: 40, height: 1)
        _ = wide.put(
            [Segment("● connected  "), Segment("since 20:38:54 (15s)")], x: 0, y: 0, limit: 40, glyphs: .unicode)
        #expect(wide.line(0).hasPrefix("● connected  since 20:38:54 (15s)"))
    }

    @Test func namesSortAsPeopleReadThem() {
        let names = ["user50", "user9", "user10", "alex", "user009", "user9b", "user", "b2c10", "b2c9"]
        #expect(
            names.sorted(by: Format.naturalLess)
                == ["alex", "b2c9", "b2c10", "user", "user009", "user9", "user9b", "user10", "user50"])
    }

    /// The byte-level order agrees with the order by scalars on every pair, ASCII or not.
    @Test func theFastNaturalOrderIsTheOrderByScalars() {
        var random = SeededRandom(seed: 12)
        let pieces = ["a", "B", "0", "00", "7", "10", "9", "é", "e\u{301}", "李", "😀", "-", " ", "\u{FFFD}", "z"]
        let names = (0..<400).map { _ in
            (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
        }
        for a in names {
            for b in names.prefix(60) {
                #expect(Format.naturalLess(a, b) == Format.naturalLessByScalars(a, b), "\(a) vs \(b)")
            }
        }
    }
}
