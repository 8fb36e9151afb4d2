import RTDBCore
import Testing

@testable import RTDBClient

/// What the app hands a write, made into JSON and nodes, alone.
@Suite struct WriteInputTests {
    @Test func aPriorityJoinsAnObjectOrWrapsAValue() throws {
        #expect(try WriteInput.exportJSON(5, priority: "p", at: Path("a")) == [".value": 5, ".priority": "p"])
        #expect(try WriteInput.exportJSON(["x": 1], priority: 2, at: Path("a")) == ["x": 1, ".priority": 2])
        #expect(try WriteInput.exportJSON(nil, priority: nil, at: Path("a")) == .null)
    }

    @Test func anUpdateIsRefusedWhenItsPathsOverlapOrATargetIsNotWritable() throws {
        let nodes = try WriteInput.updateNodes([("b/c", 1), ("d", "x")], at: Path("a"))
        #expect(nodes.map(\.path) == [Path("b/c"), Path("d")])
        #expect(throws: ValidationError.self) { try WriteInput.updateNodes([("b", 1), ("b/c", 2)], at: Path("a")) }
        #expect(throws: ValidationError.self) { try WriteInput.node(1, at: Path(".info/connected")) }
        #expect(try WriteInput.node(3, at: Path("a/.priority")) == Node(.number(.int(3))))
    }
}
