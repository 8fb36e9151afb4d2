import RTDBCore
@_spi(Fuzzing) import RTDBServer

extension FuzzTarget {
    /// A request target (`/path.json?query`) read as the REST API reads it; a query it accepts
    /// is applied to a small tree.
    static func rest(_ bytes: [UInt8]) {
        let target = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard let query = RESTTargetReader.query(ofTarget: target) else { return }
        _ = query.filter(sample)
    }

    private static let sample: Node = {
        var children: [(ChildKey, Node)] = []
        for index in 0..<20 {
            let number = JSONValue.int(Int64(index))
            let value: JSONValue = [number, .string("s\(index)"), ["n": number]][index % 3]
            if let node = try? Node(json: value) { children.append((ChildKey("k\(index)"), node)) }
        }
        return Node(children: ChildrenMap(children))
    }()
}
