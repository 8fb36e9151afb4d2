import RTDBCore

extension FuzzTarget {
    /// JSON text imported as a tree: what parses prints back to the same value, and a tree built
    /// from it exports to JSON that builds the same tree (with the same hash); the check that
    /// lets text go out unparsed passes exactly the text that parses.
    static func json(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parses = (try? JSONParser.parse(text)) != nil
        fuzzInvariant(
            JSONParser.isDocument(text) == parses, "the check and the parser disagree on \(text.debugDescription)")
        guard let json = try? JSONParser.parse(bytes: bytes) else { return }
        let printed = json.jsonString
        let again = try? JSONParser.parse(printed)
        fuzzInvariant(again == json, "\(printed) does not read back as the value it printed")
        guard let node = try? Node(json: json) else { return }
        let exported = node.exportJSON
        let rebuilt = try? Node(json: exported)
        fuzzInvariant(rebuilt == node, "the export \(exported.jsonString) does not rebuild its tree")
        fuzzInvariant(rebuilt?.hashString == node.hashString, "the rebuilt tree's hash differs")
    }
}
