import Foundation
import Testing

/// Rooms that hold one thing, checked on the sources.
///
/// No type that holds state has over 15 stored properties, or, with over 8, over 600 lines
/// across its bodies; a `Mutex` of a `State` counts the `State`'s properties. Flat option and
/// settings types and immutable values are exempt (a command's flags, a theme's glyphs).
@Suite struct TypeSizeTests {
    static let maxStored = 15
    static let maxStoredOfALongType = 8
    static let longType = 600

    /// Whether `type` is exempt: a flat option or settings type, or an immutable value.
    static func isExempt(_ type: TypeSizeScanner.TypeSize) -> Bool {
        ["Command", "Options", "Configuration", "Settings"].contains { type.name.hasSuffix($0) }
            || (type.isValue && type.isImmutable)
    }

    /// What is over the limits among `sizes`, one line each.
    static func oversized(_ sizes: [TypeSizeScanner.TypeSize]) -> [String] {
        sizes.filter { !isExempt($0) }.compactMap { type in
            var stored = type.stored.count
            if let name = type.mutexState, let state = sizes.first(where: { $0.name == name && $0.file == type.file }) {
                stored += state.stored.count - 1
            }
            if stored > maxStored || (stored > maxStoredOfALongType && type.lines > longType) {
                return "\(type.name) (\(type.file)): \(stored) stored properties, \(type.lines) lines"
            }
            return nil
        }
    }

    @Test func noTypeHoldsMoreThanOneRoomsWorth() throws {
        var scanner = TypeSizeScanner()
        let sources = DependencyRuleTests.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            scanner.read(text, file: file)
        }
        let sizes = scanner.sizes
        #expect(sizes.count > 300, "the sources were read: \(sizes.count) types")
        let over = Self.oversized(sizes)
        #expect(over.isEmpty, "\(over.joined(separator: "\n"))")
    }

    @Test func theScannerCountsWhatTheRuleCounts() throws {
        let source = """
            final class Hub {
                let a = 1, b: Int  // a comment with a { brace
                var c: Int { 3 }
                var d: [Int] {
                    didSet { print("}") }
                }
                static let e = 4
                lazy var f = "{"
                private let state = Mutex(State())
                struct State {
                    var g = 1
                    var h = 2
                    var i = 3
                }
                class func make() -> Hub { Hub() }
            }
            extension Hub {
                func more() {}
            }
            struct Glyphs {
                let corner: Character
            }
            """
        var scanner = TypeSizeScanner()
        scanner.read(source, file: "Hub.swift")
        let sizes = scanner.sizes
        let hub = try #require(sizes.first { $0.name == "Hub" })
        #expect(hub.stored == ["a", "d", "f", "state"], "\(hub.stored)")
        #expect(hub.mutexState == "State" && !hub.isImmutable && !hub.isValue)
        #expect(hub.lines == 15 + 2, "its body and its extension's")
        #expect(sizes.map(\.name) == ["Hub", "State", "Glyphs"])
        let glyphs = try #require(sizes.last)
        #expect(glyphs.isValue && glyphs.isImmutable && Self.isExempt(glyphs))
        var big = hub
        big.stored += (0..<10).map { "p\($0)" }
        #expect(Self.oversized([big, sizes[1]]).count == 1, "14 own and 3 in its State, less the Mutex")
    }
}
