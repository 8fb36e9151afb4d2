import RTDBCore
import Testing

/// The node's JSON written straight to text is the text of its JSON tree, byte for byte.
@Suite struct NodeTextTests {
    @Test func plainAndExportTextAreTheTreesText() throws {
        let documents = [
            #"null"#, #"7"#, #""text \"quoted\" é 😀""#, #"true"#,
            #"{"a": 1, "b": {"c": [1, 2, null, 4]}, "d": {".value": 3, ".priority": 1}}"#,
            #"{"0": "x", "2": "z"}"#, #"{"0": "x", "5": "z"}"#, #"{"1": "x", "2": "y"}"#, #"{"00": 1, "1": 2}"#,
            #"{"list": {"0": {"0": true}, "1": false}, ".priority": "p"}"#, #"{"-1": 1, "0": 2}"#,
        ]
        for document in documents {
            let node = try Node(jsonString: document)
            for arrays in [false, true] {
                var plain: [UInt8] = []
                node.writePlain(to: &plain, arrays: arrays)
                #expect(
                    String(decoding: plain, as: UTF8.self) == node.plainJSON(arrays: arrays).jsonString, "\(document)")
            }
            var export: [UInt8] = []
            node.writeExport(to: &export)
            #expect(String(decoding: export, as: UTF8.self) == node.exportJSON.jsonString, "\(document)")
        }
    }
}
