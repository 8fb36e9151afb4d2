import Foundation
import RTDBCore
import RTDBWire
import Testing

@testable import RTDBClient

/// Runs the Firebase JS SDK's 112 sync-tree scenarios (Fixtures/syncPointSpec.json) against
/// `SyncTree`, at the root and again under `foo/bar/baz`.
@Suite struct SyncPointSpecTests {
    static let scenarios: [JSONValue] = {
        let url = Bundle.module.url(forResource: "syncPointSpec", withExtension: "json", subdirectory: "Fixtures")!
        let data = try! Data(contentsOf: url)
        return try! JSONParser.parse(bytes: data).arrayValue!
    }()

    static let cases: [(Int, String)] = (0..<scenarios.count).flatMap { [($0, ""), ($0, "foo/bar/baz")] }

    @Test func allScenariosAreThere() {
        #expect(Self.scenarios.count == 112)
    }

    @Test(arguments: cases)
    func scenario(index: Int, basePath: String) throws {
        let spec = Self.scenarios[index]
        var runner = SpecRunner(basePath: Path(basePath))
        let name = spec["name"]?.stringValue ?? "#\(index)"
        for (stepNumber, step) in (spec["steps"]?.arrayValue ?? []).enumerated() {
            do {
                try runner.run(step)
            } catch {
                Issue.record(
                    "\(name) [base '\(basePath)'], step \(stepNumber) (\(step["type"]?.stringValue ?? "?")): \(error)")
                return
            }
        }
    }
}

/// A listener that records the listen step it was made for.
final class SpecRegistration: EventRegistration {
    let listenPath: Path
    let queryIdentifier: String

    init(listenPath: Path, queryIdentifier: String) {
        self.listenPath = listenPath
        self.queryIdentifier = queryIdentifier
    }

    func respondsTo(_ type: EventType) -> Bool { true }
    var hasCancelCallback: Bool { false }
}

/// Records server listens and refuses duplicates, as the SDK's test provider does.
final class SpecListenProvider: ListenProvider {
    var listens: Set<String> = []
    var problems: [String] = []

    func startListening(
        _ query: QuerySpec, tag: Int?, hash: @escaping () -> String, onComplete: @escaping (WireStatus) -> [SyncEvent]
    ) -> [SyncEvent] {
        let key = "\(query.path)|\(query.queryIdentifier)|\(tag.map(String.init) ?? "")"
        if !listens.insert(key).inserted { problems.append("duplicate listen \(key)") }
        return []
    }

    func stopListening(_ query: QuerySpec, tag: Int?) {
        let key = "\(query.path)|\(query.queryIdentifier)|\(tag.map(String.init) ?? "")"
        if listens.remove(key) == nil { problems.append("stopped a listen never started: \(key)") }
    }
}

struct SpecFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct SpecRunner {
    let basePath: Path
    let provider = SpecListenProvider()
    let tree: SyncTree
    var registrations: [String: SpecRegistration] = [:]
    var nextWriteID = 0

    init(basePath: Path) {
        self.basePath = basePath
        tree = SyncTree(listenProvider: provider)
    }

    func path(_ step: JSONValue) -> Path { basePath.child(step["path"]?.stringValue ?? "") }

    mutating func run(_ step: JSONValue) throws {
        let expected = step["events"]?.arrayValue ?? []
        let events: [SyncEvent]
        switch step["type"]?.stringValue {
        case "listen":
            let query = QuerySpec(path: path(step), params: try Self.params(step["params"]))
            let callbackID = step["callbackId"]?.intValue.map(String.init)
            let registration =
                callbackID.flatMap { registrations[$0] }
                ?? SpecRegistration(listenPath: query.path, queryIdentifier: query.queryIdentifier)
            if let callbackID { registrations[callbackID] = registration }
            try Self.exactMatch(expected, tree.addEventRegistration(registration, for: query), basePath: basePath)
            try checkProvider()
            return
        case "unlisten":
            guard let callbackID = step["callbackId"]?.intValue.map(String.init),
                let registration = registrations[callbackID]
            else { throw SpecFailure("unknown callbackId") }
            try Self.exactMatch(
                expected, tree.removeEventRegistration(registration, for: .default(path(step))), basePath: basePath)
            try checkProvider()
            return
        case "set":
            let node = try Node(json: step["data"] ?? .null)
            events = tree.applyUserOverwrite(
                path(step), node, writeID: nextWriteID, visible: step["visible"]?.boolValue ?? true)
            nextWriteID += 1
        case "update":
            events = tree.applyUserMerge(path(step), try Self.children(step["data"]), writeID: nextWriteID)
            nextWriteID += 1
        case "serverUpdate":
            let node = try Node(json: step["data"] ?? .null)
            if let tag = step["tag"]?.intValue {
                events = tree.applyTaggedQueryOverwrite(path(step), node, tag: Int(tag))
            } else {
                events = tree.applyServerOverwrite(path(step), node)
            }
        case "serverMerge":
            let children = try Self.children(step["data"])
            if let tag = step["tag"]?.intValue {
                events = tree.applyTaggedQueryMerge(path(step), children, tag: Int(tag))
            } else {
                events = tree.applyServerMerge(path(step), children)
            }
        case "ackUserWrite":
            events = tree.ackUserWrite(Int(step["writeId"]?.intValue ?? -1), revert: step["revert"]?.boolValue ?? false)
        case "suppressWarning":
            return
        default:
            throw SpecFailure("unknown step type")
        }
        try Self.setMatch(expected, events, basePath: basePath)
        try checkProvider()
    }

    func checkProvider() throws {
        if !provider.problems.isEmpty { throw SpecFailure(provider.problems.joined(separator: "; ")) }
    }

    static func children(_ data: JSONValue?) throws -> [(path: Path, node: Node)] {
        try (data?.objectValue ?? [:]).map { (Path($0.key.string), try Node(json: $0.value)) }
    }

    static func params(_ json: JSONValue?) throws -> QueryParams {
        var params = QueryParams()
        guard let members = json?.objectValue else { return params }
        for (name, value) in members {
            let bound = { (inclusive: Bool) in
                QueryParams.Bound(
                    value: value["index"] ?? .null, name: value["name"]?.stringValue.map { ChildKey($0) },
                    inclusive: inclusive)
            }
            switch name {
            case "tag": break
            case "orderBy": params.index = .child(Path(value.stringValue ?? ""))
            case "orderByKey": params.index = .key
            case "orderByPriority": params.index = .priority
            case "limitToFirst":
                params.limit = Int(value.intValue ?? 0)
                params.viewFrom = .left
            case "limitToLast":
                params.limit = Int(value.intValue ?? 0)
                params.viewFrom = .right
            case "startAt": params.start = bound(true)
            case "startAfter": params.start = bound(false)
            case "endAt": params.end = bound(true)
            case "endBefore": params.end = bound(false)
            case "equalTo":
                params.start = bound(true)
                params.end = bound(true)
            default: throw SpecFailure("unsupported query parameter \(name)")
            }
        }
        return params
    }

    static func describe(_ event: SyncEvent) -> String {
        guard case .data(let data) = event else { return "cancel" }
        return
            "\(data.type.rawValue) \(data.childKey?.string ?? "-") prev=\(data.previousKey?.string ?? "nil") \(data.node)"
    }

    static func matches(_ expected: JSONValue, _ event: SyncEvent, checkPrevious: Bool = true) throws -> Bool {
        guard case .data(let actual) = event else { return false }
        guard expected["type"]?.stringValue == actual.type.rawValue else { return false }
        if actual.type != .value {
            guard expected["name"]?.stringValue == actual.childKey?.string else { return false }
            if checkPrevious && actual.type != .childRemoved {
                let expectedPrevious = expected["prevName"]?.stringValue
                guard expectedPrevious == actual.previousKey?.string else { return false }
            }
        }
        return try Node(json: expected["data"] ?? .null).hashString == actual.node.hashString
    }

    static func exactMatch(_ expected: [JSONValue], _ actual: [SyncEvent], basePath: Path) throws {
        guard expected.count == actual.count else {
            throw SpecFailure("expected \(expected.count) events, got \(actual.count): \(actual.map(describe))")
        }
        for (want, got) in zip(expected, actual) where try !matches(want, got) {
            throw SpecFailure("expected \(want.jsonString), got \(describe(got))")
        }
    }

    /// Groups by listen path in order; inside a group a set, with each listener's events ordered
    /// removed < added < moved < changed < value.
    static func setMatch(_ expected: [JSONValue], _ actual: [SyncEvent], basePath: Path) throws {
        guard expected.count == actual.count else {
            throw SpecFailure("expected \(expected.count) events, got \(actual.count): \(actual.map(describe))")
        }
        var remainingExpected = expected
        var remainingActual = actual
        while let first = remainingExpected.first {
            let groupPath = basePath.child(first["path"]?.stringValue ?? "")
            var count = 1
            while count < remainingExpected.count,
                basePath.child(remainingExpected[count]["path"]?.stringValue ?? "") == groupPath
            {
                count += 1
            }
            var expectedSlice = Array(remainingExpected.prefix(count))
            var lastTypeByListen: [String: EventType] = [:]
            for event in remainingActual.prefix(count) {
                guard let registration = event.registration as? SpecRegistration, case .data(let data) = event else {
                    throw SpecFailure("unexpected event \(describe(event))")
                }
                if registration.listenPath != groupPath {
                    throw SpecFailure("event \(describe(event)) for \(registration.listenPath), expected \(groupPath)")
                }
                let listenID = "\(registration.listenPath)|\(registration.queryIdentifier)"
                if let last = lastTypeByListen[listenID], data.type < last {
                    throw SpecFailure("\(data.type.rawValue) raised after \(last.rawValue)")
                }
                lastTypeByListen[listenID] = data.type
                guard let position = try expectedSlice.firstIndex(where: { try matches($0, event) }) else {
                    throw SpecFailure(
                        "unexpected event \(describe(event)); expected one of \(expectedSlice.map(\.jsonString))")
                }
                expectedSlice.remove(at: position)
            }
            remainingExpected.removeFirst(count)
            remainingActual.removeFirst(count)
        }
    }
}
