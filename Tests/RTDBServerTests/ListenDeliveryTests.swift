import RTDBCore
import RTDBRules
import RTDBWire
import Testing

@testable import RTDBServer

/// What a listen is sent, alone: the trees before and after a change given by hand.
@Suite struct ListenDeliveryTests {
    static func listen(
        _ path: String, format: ListenFormat = .websocket(tag: nil), query: QueryParams = .default,
        lastResult: Node = .empty
    ) -> Listen {
        let path = Path(path)
        return Listen(
            key: Listen.Key(outlet: 1, path: path, queryIdentifier: query.queryIdentifier), outlet: Outlet(),
            path: path,
            query: query, format: format, auth: .anonymous, lastResult: lastResult)
    }

    static func texts(_ items: [OutboundItem]) -> [String] {
        items.map {
            switch $0 {
            case .wire(let text): text
            case .event(let name, let data): "\(name) \(data)"
            case .close: "close"
            }
        }
    }

    @Test func aWriteBelowIsSentAsItIsAndOneAboveOnlyWhenTheListenedDataChanged() {
        let before = Node(trustedJSON: ["rooms": ["a": 1, "b": 2], "other": 0])
        let below = TreeChange.set(path: Path("rooms/a"), node: Node(trustedJSON: 5))
        let delivery = ListenDelivery.changes(
            below, for: Self.listen("rooms"), before: before, after: below.applied(to: before))
        #expect(Self.texts(delivery.items) == [#"{"t":"d","d":{"a":"d","b":{"p":"/rooms/a","d":5}}}"#])
        #expect(delivery.result == nil)

        let above = TreeChange.set(path: .root, node: Node(trustedJSON: ["rooms": ["a": 1, "b": 2]]))
        let unchanged = ListenDelivery.changes(
            above, for: Self.listen("rooms"), before: before, after: above.applied(to: before))
        #expect(unchanged.items.isEmpty, "the root was rewritten, the rooms were not")
    }

    @Test func aMergeIsOnePatchForStreamsWhenItsChildrenAreOneLevelDeep() {
        let merge = TreeChange.merge(
            path: Path("rooms"), children: [(Path("a"), Node(trustedJSON: 1)), (Path("b"), Node(trustedJSON: 2))])
        let stream = Self.listen("rooms", format: .serverSentEvents(export: false))
        let patch = ListenDelivery.changes(merge, for: stream, before: .empty, after: merge.applied(to: .empty))
        #expect(Self.texts(patch.items) == [#"patch {"path":"/","data":{"a":1,"b":2}}"#])
        let deep = TreeChange.merge(path: Path("rooms"), children: [(Path("a/x"), Node(trustedJSON: 1))])
        let puts = ListenDelivery.changes(deep, for: stream, before: .empty, after: deep.applied(to: .empty))
        #expect(Self.texts(puts.items) == [#"put {"path":"/a/x","data":1}"#])
    }

    @Test func aQueryIsSentWhatEnteredLeftOrChangedAndRemembersItsResult() {
        let query = QueryParams(index: .key, limit: 2, viewFrom: .left)
        let before = Node(trustedJSON: ["a": 1, "b": 2, "c": 3])
        let listen = Self.listen("", format: .websocket(tag: 7), query: query, lastResult: query.filter(before))
        let removeA = TreeChange.set(path: Path("a"), node: .empty)
        let after = removeA.applied(to: before)
        let delivery = ListenDelivery.changes(removeA, for: listen, before: before, after: after)
        #expect(Self.texts(delivery.items) == [#"{"t":"d","d":{"a":"m","b":{"p":"/","d":{"a":null,"c":3},"t":7}}}"#])
        #expect(delivery.result == Node(trustedJSON: ["b": 2, "c": 3]))
        let again = Self.listen("", format: .websocket(tag: 7), query: query, lastResult: query.filter(after))
        #expect(ListenDelivery.changes(removeA, for: again, before: after, after: after).items.isEmpty)
    }

    @Test func theFirstDataIsNotSentToAClientThatHasIt() {
        let node = Node(trustedJSON: ["a": 1])
        #expect(ListenDelivery.initial(node, at: Path("x"), format: .websocket(tag: nil), hash: node.hashString) == nil)
        #expect(ListenDelivery.initial(.empty, at: Path("x"), format: .websocket(tag: nil), hash: "") == nil)
        #expect(ListenDelivery.initial(node, at: Path("x"), format: .websocket(tag: nil), hash: "") != nil)
        #expect(
            ListenDelivery.initial(node, at: Path("x"), format: .serverSentEvents(export: false), hash: nil)
                == .event(name: "put", data: #"{"path":"/","data":{"a":1}}"#))
    }
}
