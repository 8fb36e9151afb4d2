import Foundation
import Testing

@testable import RTDBCore

/// A node left as stored text reads exactly as the parsed node, parsed once, on any thread.
@Suite struct DeferredNodeTests {
    static let documents = [
        #"{"a":1,"b":{"c":"x","d":[true,false,null,2.5]}}"#,
        #"{".priority":"p","x":{".value":5,".priority":2},"y":{".priority":1.5,"z":-0.0}}"#,
        #"{"9":1,"10":2,"-1":3,"a":4}"#,
        #""just a string""#, "42", #"{"t":{".sv":"timestamp"},"n":{".sv":{"increment":2}}}"#,
    ]

    @Test(arguments: documents) func aDeferredNodeReadsAsTheParsedOne(_ text: String) throws {
        let expected = try Node(jsonString: text)
        let stored = expected.exportJSON.jsonString
        let deferred = Node(deferredJSON: stored)
        #expect(!deferred.isEmpty)
        #expect(deferred.deferredNode?.isParsed == false, "nothing parsed yet")
        #expect(deferred.containsServerValues == expected.containsServerValues)
        #expect(deferred == expected)
        #expect(deferred.hashValue == expected.hashValue)
        #expect(deferred.priority == expected.priority)
        #expect(deferred.hashString == expected.hashString)
        #expect(deferred.exportJSON == expected.exportJSON)
        let fromBytes = Array(stored.utf8).withUnsafeBufferPointer { Node(deferredJSON: $0) }
        #expect(fromBytes == expected)
    }

    @Test func textWithoutServerValuesIsNotParsedToSaySo() {
        let deferred = Node(deferredJSON: #"{"a":{"b":"x"},"c":3}"#)
        #expect(!deferred.containsServerValues)
        #expect(deferred.deferredNode?.isParsed == false)
        #expect(Node(deferredJSON: #"{"a":{".sv":"timestamp"}}"#).containsServerValues)
    }

    @Test func emptyTextIsTheEmptyNodeAtOnce() {
        #expect(Node(deferredJSON: "null").isEmpty)
        #expect(Node(deferredJSON: "{}").isEmpty)
        #expect(Node(deferredJSON: "null").deferredNode == nil)
    }

    @Test func unreadableTextReadsAsEmpty() {
        let broken = Node(deferredJSON: #"{"a":"#)
        #expect(!broken.isEmpty, "known only once parsed")
        #expect(broken.children.isEmpty && broken.leafValue == nil)
    }

    @Test func manyThreadsParseItOnce() {
        let deferred = Node(deferredJSON: #"{"a":1,"b":{"c":2}}"#)
        let expected = Node(children: ChildrenMap([(ChildKey("a"), Node(.number(.int(1))))]))
            .updating(at: Path("b/c"), with: Node(.number(.int(2))))
        #expect(deferred.deferredNode?.textBytes == 19)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in #expect(deferred == expected) }
        #expect(deferred.deferredNode?.isParsed == true)
        #expect(deferred.deferredNode?.textBytes == 0, "the text is let go once parsed")
    }
}
