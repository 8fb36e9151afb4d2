import RTDBCore

extension WireWrite {
    /// The write a request read the general way makes, its data converted by
    /// ``Node/init(json:at:)``: what ``read(_:)`` must give for the same text, when it gives one.
    ///
    /// - Returns: nil for a request that is not a set or an update.
    /// - Throws: What converting the data throws.
    public init?(number: Int, request: ClientRequest) throws(ValidationError) {
        switch request {
        case .put(let path, let data, let hash, let key):
            self.init(
                number: number, path: path, change: .set(try Node(json: data, at: path.writeTarget), hash: hash),
                idempotencyKey: key, dataText: nil)
        case .merge(let path, let data, let key):
            var children: [(relative: Path, node: Node)] = []
            for (member, value) in data {
                let relative = Path(member.string)
                children.append((relative, try Node(json: value, at: path.child(relative).writeTarget)))
            }
            self.init(
                number: number, path: path, change: .update(children), idempotencyKey: key, dataText: nil)
        default:
            return nil
        }
    }
}

extension WireWrite {
    /// Whether ``dataText`` reads back, the general way, to the change's nodes (the paths an
    /// update's object names, in order, and their nodes); true when there is no text.
    public var dataTextReadsBack: Bool {
        guard let dataText else { return true }
        guard let data = try? JSONParser.parse(dataText) else { return false }
        switch change {
        case .set(let node, _):
            return (try? Node(json: data, at: path.writeTarget)) == node
        case .update(let children):
            guard case .object(let members) = data, members.count == children.count else { return false }
            return zip(members, children).allSatisfy { member, child in
                let relative = Path(member.key.string)
                return relative == child.relative
                    && (try? Node(json: member.value, at: path.child(relative).writeTarget)) == child.node
            }
        }
    }
}

extension WireWrite: Equatable {
    /// Same number, path, key and change (an update's children compared in order); the data's
    /// text may differ, as texts of the same data do.
    public static func == (lhs: WireWrite, rhs: WireWrite) -> Bool {
        guard lhs.number == rhs.number, lhs.path == rhs.path, same(lhs.idempotencyKey, rhs.idempotencyKey) else {
            return false
        }
        switch (lhs.change, rhs.change) {
        case (.set(let left, let leftHash), .set(let right, let rightHash)):
            return left == right && same(leftHash, rightHash)
        case (.update(let left), .update(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.relative == $1.relative && $0.node == $1.node }
        default:
            return false
        }
    }

    /// Texts compared by their code units.
    private static func same(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let left?, let right?): CodeUnitString.equal(left, right)
        default: false
        }
    }
}
