import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

@Suite struct DurabilityTests {
    @Test(arguments: [3, 50_000])
    func dataSurvivesARestart(checkpointInterval: Int) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestServer.start(
            dataDirectory: directory, configure: { $0.checkpointInterval = checkpointInterval })
        let client = WireTestClient(url: first.webSocketURL)
        _ = try await client.hello()
        for index in 0..<25 {
            _ = await client.send(.put(path: Path("items/i\(index)"), data: ["n": .int(Int64(index))], hash: nil))
        }
        _ = try await client.call(.merge(path: Path("items"), data: ["i3/n": 300, "i4": nil]))
        _ = try await client.call(.put(path: Path("meta/x"), data: ["c": [".sv": ["increment": 2]]], hash: nil))
        _ = try await client.call(.put(path: Path("meta/.priority"), data: 7, hash: nil))
        _ = try await client.call(.put(path: Path("meta/x/c"), data: [".sv": ["increment": 3]], hash: nil))
        let before = try await client.call(.get(path: .root, query: .default)).data
        await client.close()
        await first.stop()

        let second = try await TestServer.start(dataDirectory: directory)
        let reader = WireTestClient(url: second.webSocketURL)
        _ = try await reader.hello()
        let after = try await reader.call(.get(path: .root, query: .default)).data
        #expect(after == before)
        #expect(after["items"]?["i3"]?["n"] == 300)
        #expect(after["items"]?["i4"] == nil)
        #expect(after["meta"]?[".priority"] == 7)
        #expect(after["meta"]?["x"]?["c"] == 5)
        await reader.close()
        await second.stop()
    }

    /// Writes read straight from their text keep that text in the log: written oddly (spaces,
    /// escapes, nulls, numbers spelled otherwise, keys out of order), it replays to the same data
    /// (server values as they were resolved) after a crash (the files copied while the server runs, so no checkpoint holds the writes).
    @Test func writesKeptAsSentReplayToTheSameData() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestServer.start(
            dataDirectory: directory, configure: { $0.checkpointInterval = 50_000 })
        let client = WireTestClient(url: first.webSocketURL)
        _ = try await client.hello()
        let texts = [
            #"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a/b","d":{ "z" : 1.5e3, "y":-0, "x":{"gone":null}, "\u00e9":"\u2713\n" }}}}"#,
            #"{"t":"d","d":{"r":2,"a":"m","b":{"p":"/a","d":{"b/w":12345678901234567,"c":{"k":true},"b/y":null}}}}"#,
            #"{"t":"d","d":{"r":3,"a":"p","b":{"p":"/a/.priority","d":4}}}"#,
            #"{"t":"d","d":{"r":4,"a":"p","b":{"p":"/n","d":null}}}"#,
            #"{"t":"d","d":{"r":5,"a":"p","b":{"p":"/s","d":{"at":{".sv":"timestamp"},"n":{".sv":{"increment":2}}}}}}"#,
        ]
        for text in texts { client.sendFrame(text) }
        for number in 1...texts.count { #expect(try await client.response(to: number).status == .ok) }
        // The files as a crash now would leave them: the writes in the log, no checkpoint since.
        let crashed = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: crashed) }
        try FileManager.default.removeItem(at: crashed)
        try FileManager.default.copyItem(at: directory, to: crashed)
        let before = try await client.call(.get(path: .root, query: .default)).data
        #expect(before["a"]?["b"]?["z"] == .double(1500) && before["a"]?["b"]?["\u{e9}"] == "\u{2713}\n")
        #expect(before["a"]?["b"]?["w"] == .int(12_345_678_901_234_567) && before["a"]?[".priority"] == 4)
        #expect(before["s"]?["n"] == 2 && before["s"]?["at"]?.intValue != nil)
        await client.close()
        await first.stop()

        let second = try await TestServer.start(dataDirectory: crashed)
        let reader = WireTestClient(url: second.webSocketURL)
        _ = try await reader.hello()
        #expect(try await reader.call(.get(path: .root, query: .default)).data == before)
        await reader.close()
        await second.stop()
    }

    @Test func sqliteStoreCompactsAndReplays() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.sqlite").path
        let store = try SQLiteStore(path: path)
        let records = [
            LogRecord(sequence: 1, path: Path("a"), kind: .set, data: #"{"x":1}"#),
            LogRecord(sequence: 2, path: Path("b"), kind: .set, data: "2"),
            LogRecord(sequence: 3, path: .root, kind: .merge, data: #"{"a/y":3,"b":null}"#),
        ]
        try await store.append(Array(records.prefix(2)), checkpoint: nil)
        var root = Node.empty
        for record in records { root = try record.apply(to: root) }
        try await store.append([records[2]], checkpoint: Checkpoint(root: root, sequence: 3, dirtyKeys: ["a", "b"]))
        try await store.append([LogRecord(sequence: 4, path: Path("c"), kind: .set, data: "true")], checkpoint: nil)
        try await store.close()
        let reopened = try SQLiteStore(path: path)
        let (loaded, sequence) = try await reopened.load()
        #expect(sequence == 4)
        #expect(loaded.plainJSON() == ["a": ["x": 1, "y": 3], "c": true])
        try await reopened.close()
    }
}
