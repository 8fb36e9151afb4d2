import RTDBCore
import RTDBWire

/// What the server does with a write's message before its rules and its tree: the text read, its
/// data made nodes (`server-writes --callgrind` counts it).
public enum WireWorkload {
    /// The messages, as `server-writes` sends them: a presence connection entry each.
    public static func messages(_ count: Int) -> [String] {
        (0..<count).map { index in
            WireMessage.request(
                index + 1,
                ClientRequest.put(
                    path: Path("users/bench0/connections/k\(index % 5_000)"),
                    data: ["device": "bench", "connectedAt": .int(Int64(index))], hash: nil)
            ).text
        }
    }

    /// Reads each message as the server does (straight to nodes, the general way when that
    /// declines); returns how many children the nodes had (so that nothing is optimised away), or
    /// nil if one was not a set.
    public static func run(_ messages: some Sequence<String>) -> Int? {
        var children = 0
        for text in messages {
            if let write = WireWrite.read(text) {
                guard case .set(let node, _) = write.change else { return nil }
                children &+= node.childCount
                continue
            }
            guard case .request(_, let action, let body)? = try? WireMessage(text: text),
                case .put(let path, let data, _, _)? = try? ClientRequest(action: action, body: body),
                let node = try? Node(json: data, at: path.writeTarget)
            else { return nil }
            children &+= node.childCount
        }
        return children
    }
}
