import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

@Suite struct RESTTests {
    @Test func crudAndPrintModes() async throws {
        let server = try await TestServer.start()
        let port = server.port
        let put = try await http(
            "PUT", "/users/morgan.json?ns=demo", port: port,
            body: #"{"name":"Morgan","age":33,"t":{".sv":"timestamp"}}"#)
        #expect(put.status == 200)
        #expect(put.json?["name"] == "Morgan")
        #expect(put.json?["t"]?.intValue != nil, "the echo shows the resolved timestamp")
        #expect(try await http("GET", "/users/morgan/name.json", port: port).json == "Morgan")
        #expect(try await http("GET", "/nothing.json", port: port).body == "null")

        let silent = try await http("PUT", "/users/morgan/age.json?print=silent", port: port, body: "34")
        #expect(silent.status == 204)
        #expect(silent.body.isEmpty)
        let patch = try await http(
            "PATCH", "/users/morgan.json", port: port, body: #"{"age":35,"address/city":"Lyon"}"#)
        #expect(patch.status == 200)
        #expect(try await http("GET", "/users/morgan/address.json", port: port).json == ["city": "Lyon"])

        let post = try await http("POST", "/messages.json", port: port, body: #"{"text":"hi"}"#)
        let name = try #require(post.json?["name"]?.stringValue)
        #expect(name.utf8.count == 20)
        #expect(try await http("GET", "/messages/\(name)/text.json", port: port).json == "hi")

        let delete = try await http("DELETE", "/users/morgan/address.json", port: port)
        #expect(delete.status == 200)
        #expect(delete.body == "null")
        #expect(try await http("GET", "/users/morgan/address.json", port: port).body == "null")

        let pretty = try await http("GET", "/users/morgan.json?print=pretty", port: port)
        #expect(pretty.body.contains("\n  \""))
        let override = try await http(
            "POST", "/o.json", port: port, body: "7", headers: ["X-HTTP-Method-Override": "PUT"])
        #expect(override.json == 7)
        await server.stop()
    }

    @Test func arraysShallowAndExportFormat() async throws {
        let server = try await TestServer.start()
        let port = server.port
        _ = try await http("PUT", "/list.json", port: port, body: #"["a","b","c"]"#)
        #expect(try await http("GET", "/list.json", port: port).json == ["a", "b", "c"])
        _ = try await http("PUT", "/obj.json", port: port, body: #"{"a":{"deep":1},"b":2,".priority":5}"#)
        #expect(try await http("GET", "/obj.json?shallow=true", port: port).json == ["a": true, "b": true])
        #expect(try await http("GET", "/obj/b.json?shallow=true", port: port).json == 2)
        #expect(try await http("GET", "/obj.json?format=export", port: port).json?[".priority"] == 5)
        #expect(try await http("GET", "/obj.json", port: port).json?[".priority"] == nil)
        let bad = try await http("GET", "/obj.json?shallow=true&orderBy=%22$key%22&limitToFirst=1", port: port)
        #expect(bad.status == 400)
        await server.stop()
    }

    @Test func queries() async throws {
        let server = try await TestServer.start()
        let port = server.port
        _ = try await http(
            "PUT", "/scores.json", port: port, body: #"{"a":{"s":10},"b":{"s":30},"c":{"s":20},"d":{"s":40}}"#)
        let byChild = try await http("GET", "/scores.json?orderBy=%22s%22&startAt=15&limitToFirst=2", port: port)
        #expect(byChild.json == ["b": ["s": 30], "c": ["s": 20]])
        let byKey = try await http("GET", "/scores.json?orderBy=%22$key%22&endAt=%22c%22&limitToLast=2", port: port)
        #expect(byKey.json == ["b": ["s": 30], "c": ["s": 20]])
        let equal = try await http("GET", "/scores.json?orderBy=%22s%22&equalTo=40", port: port)
        #expect(equal.json == ["d": ["s": 40]])
        _ = try await http("PUT", "/values.json", port: port, body: #"{"x":3,"y":1,"z":2}"#)
        #expect(try await http("GET", "/values.json?orderBy=%22$value%22&limitToLast=1", port: port).json == ["x": 3])
        let error = try await http("GET", "/values.json?limitToFirst=1", port: port)
        #expect(error.status == 400)
        #expect(error.json?["error"]?.stringValue?.contains("orderBy") == true)
        await server.stop()
    }

    @Test func etagsAndConditionalRequests() async throws {
        let server = try await TestServer.start()
        let port = server.port
        let empty = try await http("GET", "/c.json", port: port, headers: ["X-Firebase-ETag": "true"])
        #expect(empty.headers["etag"] == "null_etag")
        let created = try await http("PUT", "/c.json", port: port, body: "1", headers: ["if-match": "null_etag"])
        #expect(created.status == 200)
        let etag = try #require(created.headers["etag"])
        #expect(etag == Node(.number(1)).hashString)
        let stale = try await http("PUT", "/c.json", port: port, body: "5", headers: ["if-match": "null_etag"])
        #expect(stale.status == 412)
        #expect(stale.headers["etag"] == etag)
        #expect(stale.json == 1, "the current value comes back")
        #expect(try await http("PUT", "/c.json", port: port, body: "2", headers: ["if-match": etag]).status == 200)
        let notModified = try await http(
            "GET", "/c.json", port: port, headers: ["if-none-match": Node(.number(2)).hashString])
        #expect(notModified.status == 304)
        let changed = try await http("GET", "/c.json", port: port, headers: ["if-none-match": etag])
        #expect(changed.status == 200)
        #expect(changed.json == 2)
        let deleteStale = try await http("DELETE", "/c.json", port: port, headers: ["if-match": etag])
        #expect(deleteStale.status == 412)
        await server.stop()
    }

    @Test func errorsAreJSON() async throws {
        let server = try await TestServer.start()
        let port = server.port
        let cases: [(String, String, String?, Int)] = [
            ("PUT", "/a.json", "{nope", 400), ("PUT", "/a$b.json", "1", 400), ("GET", "/a", nil, 404),
            ("PATCH", "/a.json", "[1]", 400), ("PUT", "/.info/x.json", "1", 401),
            ("GET", "/x.json?ns=Bad_NS", nil, 404),
            ("PUT", "/a.json", #"{"s":{".sv":"nope"}}"#, 400),
        ]
        for (method, target, body, status) in cases {
            let response = try await http(method, target, port: port, body: body)
            #expect(response.status == status, "\(method) \(target)")
            #expect(response.json?["error"]?.stringValue?.isEmpty == false, "\(method) \(target): \(response.body)")
        }
        await server.stop()
    }

    @Test func namespacesAreSeparate() async throws {
        let server = try await TestServer.start()
        _ = try await http("PUT", "/k.json?ns=one", port: server.port, body: "1")
        _ = try await http("PUT", "/k.json?ns=two", port: server.port, body: "2")
        #expect(try await http("GET", "/k.json?ns=one", port: server.port).json == 1)
        #expect(try await http("GET", "/k.json?ns=two", port: server.port).json == 2)
        #expect(try await http("GET", "/k.json", port: server.port).body == "null", "default namespace demo")
        await server.stop()
    }

    @Test func serverSentEvents() async throws {
        // The keep-alive runs on time the test moves: none comes unless the test lets 30 s pass.
        let time = TestTime()
        let server = try await TestServer.start(
            time: time.source, configure: { $0.streamKeepAliveInterval = .seconds(30) })
        let port = server.port
        _ = try await http("PUT", "/room.json", port: port, body: #"{"a":1}"#)
        let stream = try await RawTCPClient(port: port)
        try await stream.write("GET /room.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        let head = try await stream.read(until: "\r\n\r\n")
        #expect(head.lowercased().contains("content-type: text/event-stream"))
        func nextDataEvent() async throws -> String { try await stream.read(until: "\n\n") }
        #expect(try await nextDataEvent().contains("event: put\n" + #"data: {"path":"/","data":{"a":1}}"#))
        _ = try await http("PUT", "/room/b.json", port: port, body: "2")
        #expect(try await nextDataEvent().contains(#"data: {"path":"/b","data":2}"#))
        _ = try await http("PATCH", "/room.json", port: port, body: #"{"c":3,"a":null}"#)
        #expect(try await nextDataEvent().contains("event: patch\n" + #"data: {"path":"/","data":{"c":3,"a":null}}"#))
        _ = try await http("PUT", "/.json", port: port, body: #"{"room":{"z":0}}"#)
        #expect(try await nextDataEvent().contains(#"data: {"path":"/","data":{"z":0}}"#))
        await time.advance(by: .milliseconds(29_999))
        _ = try await http("PUT", "/room/y.json", port: port, body: "1")
        #expect(try await nextDataEvent().contains(#"data: {"path":"/y","data":1}"#), "no keep-alive before 30 s")
        await time.advance(by: .milliseconds(2))
        #expect(try await nextDataEvent().hasSuffix("event: keep-alive\ndata: null\n\n"))
        await stream.close()
        await server.stop()
    }
}
