import PresenceModel
import RTDBCore
import Testing

/// A ``PresenceList`` read on a first list's text (``PresenceList/init(reading:layout:)``)
/// answers every question as the list made of the same users does, through every edit.
@Suite struct PresenceListBaseTests {
    private static let names = ["user", "zoë", "प्रिया", "محمد", "李", "👩‍💻dev", "a b", "!x", "~z"]

    /// A map on packed text of `count` status entries (thresholds lowered: every object packs).
    private static func packedMap(_ random: inout SeededRandom, count: Int) throws -> ChildrenMap {
        var ids = Set<String>()
        while ids.count < count {
            ids.insert(
                (names.randomElement(using: &random) ?? "user") + String(Int.random(in: 0..<5000, using: &random)))
        }
        let members = ids.sorted(by: UTF16Order.lessThan).map { id in
            let state = Bool.random(using: &random) ? "online" : "offline"
            return "\"\(id)\":{\"state\":\"\(state)\",\"last_changed\":\(Int.random(in: 1...9_999, using: &random))}"
        }
        let text = "{" + members.joined(separator: ",") + "}"
        let read = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: 1, minimumCount: 1, minimumBytes: 1)
        }
        let node = try #require(read ?? nil)
        #expect(node.children.isPacked)
        return node.children
    }

    /// The same users as a list made of users.
    private static func plain(_ map: ChildrenMap, _ layout: PresenceLayout) -> PresenceList {
        var users: [UserPresence] = []
        map.forEachInKeyOrder { key, node in users.append(layout.user(id: key.string, from: node)) }
        return PresenceList(users)
    }

    /// Every question asked of both, and both answering alike.
    private static func expectSame(_ list: PresenceList, _ model: PresenceList, _ step: Int) {
        #expect(list.count == model.count, "step \(step)")
        let expected = Array(model)
        #expect(Array(list) == expected, "step \(step): walked")
        for position in expected.indices where position % 7 == step % 7 || position < 3 {
            #expect(list[position] == expected[position], "step \(step): at \(position)")
        }
        var walked: [UserPresence] = []
        list.forEachUser { walked.append($0) }
        #expect(walked == expected, "step \(step): forEachUser")
        for user in expected.prefix(40) { #expect(list[id: user.id] == user) }
        #expect(list == model)
    }

    @Test func editsAnswerAsTheListOfTheSameUsers() throws {
        var random = SeededRandom(seed: 5501)
        let layout = PresenceLayout.statusNodes
        var map = try Self.packedMap(&random, count: 300)
        // Changes the map took before the directory read it come as the list's own.
        let firstKey = try #require(map.first?.key)
        map = map.removing(firstKey)
        map = map.inserting(try Node(json: ["state": "online", "last_changed": 5]), at: ChildKey("new0"))
        var list = try #require(PresenceList(reading: map, layout: layout))
        var model = Self.plain(map, layout)
        Self.expectSame(list, model, -1)
        let ids = Array(model).map(\.id) + ["42", "-7", "new1", "zzz", "\u{FFFF}x"]
        var versions = [(list, model)]
        for step in 0..<400 {
            let id = ids.randomElement(using: &random) ?? "user1"
            if Int.random(in: 0..<3, using: &random) == 0 {
                (list, model) = (list.removing(id: id), model.removing(id: id))
            } else {
                var user = UserPresence(id: id, lastOnline: UnixTime(millisecondsSince1970: Int64(step)))
                user.reportedOnline = Bool.random(using: &random)
                (list, model) = (list.updating(user), model.updating(user))
            }
            if step % 40 == 0 {
                Self.expectSame(list, model, step)
                versions.append((list, model))
            }
        }
        Self.expectSame(list, model, 400)
        // Changes between any two versions: the same users before and after.
        for (old, oldModel) in versions {
            let changes = list.changes(from: old)
            let expected = model.changes(from: oldModel)
            #expect(changes.map(\.old) == expected.map(\.old))
            #expect(changes.map(\.new) == expected.map(\.new))
            #expect(list.changes(from: old, atMost: 2).map(\.count) == (expected.count > 2 ? nil : expected.count))
        }
        // A version against a list that shares no base is walked whole, alike.
        #expect(list.changes(from: PresenceList()).map(\.new) == Array(model).map { $0 })
        #expect(PresenceList().changes(from: list).map(\.old) == Array(model).map { $0 })
        #expect(list.changes(from: model).isEmpty)
        #expect(list.isSameVersion(as: list) && !list.isSameVersion(as: model))
    }

    @Test func aListWhoseFirstKeyIsAnIntegerIsReadWhole() throws {
        let text = "{\"7\":{\"state\":\"online\"},\"a\":{\"state\":\"offline\"}}"
        let read = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: 1, minimumCount: 1, minimumBytes: 1)
        }
        let node = try #require(read ?? nil)
        #expect(node.children.isPacked)
        // Integer keys sort first, by value: not the ids' UTF-16 order.
        #expect(PresenceList(reading: node.children, layout: .statusNodes) == nil)
        #expect(PresenceList(reading: ChildrenMap(), layout: .statusNodes) == nil)
    }
}
