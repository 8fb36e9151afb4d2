import RTDBCore
import Testing

@testable import RTDBClient

/// The tracked queries in memory: what a walk up from a path (each acknowledgement's) may skip.
@Suite struct TrackedQueryMapTests {
    private static func tracked(_ id: Int, _ path: String, limit: Int? = nil) -> TrackedQuery {
        let params = limit.map { QueryParams(limit: $0, viewFrom: .left) } ?? .default
        return TrackedQuery(
            id: id, query: QuerySpec(path: Path(path), params: params), lastUse: 0, complete: true, active: false)
    }

    /// Depths are counted per default query: filtered queries, a default query tracked again
    /// and a removal that finds nothing leave the counts as they were.
    @Test func theDepthsOfDefaultQueriesAreCountedAsTheyComeAndGo() {
        var map = TrackedQueryMap()
        #expect(!(0...4).contains { map.hasDefaultQueries(atDepth: $0) })
        map.insert(Self.tracked(1, "a/b"))
        map.insert(Self.tracked(2, "a", limit: 3))
        map.insert(Self.tracked(1, "a/b"))  // the same query, saved again
        #expect((0...4).map { map.hasDefaultQueries(atDepth: $0) } == [false, false, true, false, false])
        map.insert(Self.tracked(3, "c/d"))
        map.insert(Self.tracked(4, ""))
        map.remove(Self.tracked(1, "a/b"))
        map.remove(Self.tracked(1, "a/b"))  // gone already
        map.remove(Self.tracked(2, "a", limit: 3))
        #expect((0...4).map { map.hasDefaultQueries(atDepth: $0) } == [true, false, true, false, false])
        map.remove(Self.tracked(3, "c/d"))
        map.remove(Self.tracked(4, ""))
        #expect(!(0...4).contains { map.hasDefaultQueries(atDepth: $0) })
        #expect(map.all.isEmpty)
    }
}
