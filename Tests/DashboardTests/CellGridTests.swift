import Testing

@testable import Dashboard

/// Names in every script take the columns the terminal gives them, and are drawn whole.
///
/// The widths are what tmux 3.3a (this machine's) advances its cursor by for each string
/// printed plainly (`#{cursor_x}` after `printf`), which follows glibc's `wcwidth` and joins an
/// emoji after a zero-width joiner.
@Suite struct CellGridTests {
    static let measuredInTmux: [(String, Int)] = [
        ("प्रिया", 5), ("অনন্যা", 5), ("👩‍💻dev", 5), ("สมชาย", 5), ("محمد", 4), ("李小龍", 6), ("zoë", 3),
        ("🇮🇳x", 3), ("e\u{301}x", 2), ("👍🏽x", 5), ("❤️x", 2), ("ก่x", 2),
    ]

    @Test func aNameTakesTheColumnsTheTerminalGivesIt() {
        for (name, columns) in Self.measuredInTmux {
            #expect(CellGrid.columns(of: name) == columns, "\(name)")
        }
    }

    /// Was: `प्रिया` drawn `प्य` and `👩‍💻dev` drawn `👩dev`, the joiner pushed into the next
    /// column and the row's later columns shifted.
    @Test func aNameIsDrawnWholeAndTheColumnAfterItStaysInPlace() {
        for (name, columns) in Self.measuredInTmux {
            var grid = CellGrid(width: 20, height: 1)
            let end = grid.put(name, x: 0, y: 0, role: .text)
            grid.put("|", x: 8, y: 0, role: .text)
            #expect(end == columns, "\(name)")
            let padding = String(repeating: " ", count: 8 - columns)
            #expect(grid.line(0) == name + padding + "|", "\(name): \(grid.line(0))")
            // Every cell holds what one terminal cell shows: a scalar that moves the cursor, then
            // only zero-width ones (or an emoji joined after a zero-width joiner).
            for x in 0..<columns where !grid[x, 0].isContinuation {
                let scalars = Array(grid[x, 0].character.unicodeScalars)
                #expect(scalars.first.map { CellGrid.columns(of: $0) } ?? 0 > 0, "\(name) at \(x)")
                for (index, scalar) in scalars.enumerated().dropFirst() where CellGrid.columns(of: scalar) > 0 {
                    #expect(scalars[index - 1] == "\u{200D}", "\(name) at \(x): \(scalars)")
                }
            }
        }
    }

    @Test func aNameCutShortIsCutBetweenClustersNeverInsideOne() {
        // प्रि is one cluster of three columns: with room for four, it is drawn and या is not.
        var grid = CellGrid(width: 4, height: 1)
        let end = grid.put("प्रिया", x: 0, y: 0, role: .text)
        #expect(grid.line(0) == "प्रि" && end == 3, "\(grid.line(0))")
        var emoji = CellGrid(width: 1, height: 1)
        #expect(emoji.put("👩‍💻", x: 0, y: 0, role: .text) == 0 && emoji.line(0).isEmpty, "a wide cluster needs two")
        #expect(Format.fit("अनन्याप्रिया", 6, ellipsis: "…") == "अनन्या…", "fitted by clusters")
        #expect(CellGrid.columns(of: Format.fit("👩‍💻dev", 4)) == 4 && Format.fit("👩‍💻dev", 4) == "👩‍💻d…")
    }

    @Test func piecesSplitAClusterAsTheTerminalAdvances() {
        // However Swift groups प्रि into characters, its pieces are the same.
        let pieces = "प्रि".flatMap { CellGrid.pieces(of: $0) }.map { (String($0.character), $0.columns) }
        let expected: [(String, Int)] = [("प्", 1), ("र", 1), ("ि", 1)]
        #expect(pieces.count == expected.count)
        for (piece, want) in zip(pieces, expected) { #expect(piece == want) }
        #expect(CellGrid.pieces(of: "👩‍💻").map(\.columns) == [2])
        #expect(CellGrid.pieces(of: "\u{301}").isEmpty, "a lone combining mark takes no cell")
    }

    @Test func aControlCharacterInANameNeverReachesACell() {
        var grid = CellGrid(width: 20, height: 1)
        grid.put("a\u{1B}[2J\r\nb\u{7}", x: 0, y: 0, role: .text)
        #expect(grid.line(0) == "a[2Jb")
        let cells = (0..<20).map { grid[$0, 0].character.unicodeScalars }.joined()
        #expect(!cells.contains { $0.value < 0x20 }, "no control in any cell")
    }

    /// The columns a row's right-to-left runs open and close at, as `(opens, closes)` pairs.
    private static func runs(_ grid: CellGrid, y: Int = 0) -> [(Int, Int)] {
        var runs: [(Int, Int)] = []
        var open: Int?
        for x in 0..<grid.width {
            if grid[x, y].isolation.contains(.opens) { open = x }
            if grid[x, y].isolation.contains(.closes), let start = open {
                runs.append((start, x))
                open = nil
            }
        }
        return runs
    }

    /// A right-to-left name is isolated from the rest of its row (a terminal that reorders text
    /// then cannot pull the row's later columns into it): its run from its first right-to-left
    /// letter to its last, over the spaces between words, never over what follows.
    @Test func rightToLeftRunsAreIsolated() {
        func put(_ text: String, limit: Int? = nil) -> CellGrid {
            var grid = CellGrid(width: 30, height: 1)
            grid.put(text, x: 1, y: 0, role: .text, limit: limit)
            return grid
        }
        #expect(Self.runs(put("محمد")).map { [$0.0, $0.1] } == [[1, 4]])
        #expect(Self.runs(put("محمد علي   ● online")).map { [$0.0, $0.1] } == [[1, 8]])
        #expect(Self.runs(put("user שלום 3 dev")).map { [$0.0, $0.1] } == [[6, 9]])
        #expect(Self.runs(put("محمد dev علي")).map { [$0.0, $0.1] } == [[1, 4], [10, 12]])
        // Cut by the limit: the run closes at the last letter written.
        #expect(Self.runs(put("محمدعلي", limit: 4)).map { [$0.0, $0.1] } == [[1, 3]])
        for plain in ["zoë", "प्रिया", "李小龍", "👩‍💻dev", "user9 3 connections"] {
            #expect(Self.runs(put(plain)).isEmpty, "\(plain)")
        }
        // A cell written over loses its mark.
        var grid = put("محمد")
        grid.put("ab", x: 1, y: 0, role: .text)
        #expect(!grid[1, 0].isolation.contains(.opens))
    }
}
