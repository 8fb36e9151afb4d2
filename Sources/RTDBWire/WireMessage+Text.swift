import RTDBCore

/// The messages a client and a server exchange most, written and read without a JSON tree.
extension WireMessage {
    /// The text of ``request(_:_:)``'s message: a set or an update is written straight out,
    /// without the envelope's JSON tree (a draining queue sends thousands), anything else as usual.
    public static func requestText(_ number: Int, _ request: ClientRequest) -> String {
        switch request {
        case .put(let path, let data, let hash, let key):
            return writeRequestText(number, .put, path: path, hash: hash, idempotencyKey: key) { data.write(to: &$0) }
        case .merge(let path, let children, let key):
            return writeRequestText(number, .merge, path: path, hash: nil, idempotencyKey: key) {
                JSONValue.object(children).write(to: &$0)
            }
        default:
            return WireMessage.request(number, request).text
        }
    }

    /// The text of a set's (`.put`) or an update's (`.merge`) request whose data is already JSON
    /// text, written in as it is (a stored write's, sent without a parse and an export).
    ///
    /// - Precondition: `dataText` is one JSON document (an object for an update), as
    ///   ``JSONParser/validate(_:object:)`` checks; anything else would make the whole message
    ///   unreadable.
    public static func requestText(
        _ number: Int, _ action: ClientRequest.Action, path: Path, dataText: String, hash: String?,
        idempotencyKey: String?
    ) -> String {
        writeRequestText(
            number, action, path: path, hash: hash, idempotencyKey: idempotencyKey, dataSize: dataText.utf8.count
        ) {
            $0.append(contentsOf: dataText.utf8)
        }
    }

    private static func writeRequestText(
        _ number: Int, _ action: ClientRequest.Action, path: Path, hash: String?, idempotencyKey: String?,
        dataSize: Int = 32, data writeData: (inout [UInt8]) -> Void
    ) -> String {
        // The fixed parts are byte arrays made once, each appended as one copy; the path is
        // written segment by segment, with no joined string made for it (a draining queue
        // sends thousands of these).
        var output: [UInt8] = []
        // Room for the whole text, but escapes, in one allocation.
        var size = 64 + dataSize + (hash?.utf8.count ?? 0) + (idempotencyKey?.utf8.count ?? 0)
        for segment in path.segments { size += segment.utf8.count + 1 }
        output.reserveCapacity(size)
        output.append(contentsOf: RequestTextParts.head)
        DecimalDigits.append(number, to: &output)
        switch action {
        case .put: output.append(contentsOf: RequestTextParts.putAction)
        case .merge: output.append(contentsOf: RequestTextParts.mergeAction)
        default:
            output.append(contentsOf: RequestTextParts.action)
            JSONValue.writeString(action.rawValue, to: &output)
            output.append(contentsOf: RequestTextParts.body)
        }
        output.append(UInt8(ascii: "\""))
        writePath(path, to: &output)
        output.append(contentsOf: RequestTextParts.data)
        writeData(&output)
        if let hash {
            output.append(contentsOf: RequestTextParts.hash)
            JSONValue.writeString(hash, to: &output)
        }
        if let idempotencyKey {
            output.append(contentsOf: RequestTextParts.idempotencyKey)
            JSONValue.writeString(idempotencyKey, to: &output)
        }
        output.append(contentsOf: RequestTextParts.tail)
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of `.push(.data(path:data:tag:))` with the data written by `writeData` straight
    /// into the message (a listen's first data can be a million children: no JSON tree is built
    /// for it, and it is written once).
    ///
    /// - Precondition: `writeData` appends one JSON document.
    public static func dataPushText(
        path: Path, tag: Int?, sizeHint: Int = 64, data writeData: (inout [UInt8]) -> Void
    ) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(64 + sizeHint)
        output.append(contentsOf: DataPushTextParts.head)
        writePath(path, to: &output)
        output.append(contentsOf: RequestTextParts.data)
        writeData(&output)
        if let tag {
            output.append(contentsOf: DataPushTextParts.tag)
            DecimalDigits.append(tag, to: &output)
        }
        output.append(contentsOf: RequestTextParts.tail)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes `path` as a message's `p`, inside its quotes: segment by segment, with no joined
    /// string made for it (a draining queue sends thousands).
    private static func writePath(_ path: Path, to output: inout [UInt8]) {
        if path.segments.isEmpty { output.append(UInt8(ascii: "/")) }
        for segment in path.segments {
            output.append(UInt8(ascii: "/"))
            JSONValue.writeEscaped(segment, to: &output)
        }
    }

    /// The number of an acknowledgement written exactly as ``acknowledgementText(number:)``
    /// writes it, read without parsing JSON (a draining client reads thousands); nil for any
    /// other text, which is parsed as usual.
    public static func acknowledgedNumber(inText text: String) -> Int? {
        // In place on the string's bytes (a message read from the network is stored as UTF-8);
        // any other string is parsed as usual.
        text.utf8.withContiguousStorageIfAvailable(acknowledgedNumber(inBytes:)) ?? nil
    }

    private static let acknowledgementPrefix = Array(#"{"t":"d","d":{"r":"#.utf8)
    private static let acknowledgementSuffix = Array(#","b":{"s":"ok","d":""}}}"#.utf8)

    private static func acknowledgedNumber(inBytes bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let prefix = acknowledgementPrefix
        let suffix = acknowledgementSuffix
        guard bytes.count > prefix.count + suffix.count,
            bytes.prefix(prefix.count).elementsEqual(prefix),
            bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        let digits = bytes[prefix.count..<(bytes.count - suffix.count)]
        // As the JSON parser would read them: no sign, no leading zero, within Int32.
        guard digits.count <= 10, let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        var number = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return number <= Int(Int32.max) ? number : nil
    }

    /// The text of `.response(number:status: .ok, data: "")`, the answer to every write, made
    /// without building a JSON tree: it is the message a server sends most.
    public static func acknowledgementText(number: Int) -> String {
        #"{"t":"d","d":{"r":"# + String(number) + #","b":{"s":"ok","d":""}}}"#
    }
}

/// The fixed parts of a data push's text, as bytes (the rest as a request's).
private enum DataPushTextParts {
    static let head = Array(#"{"t":"d","d":{"a":"d","b":{"p":""#.utf8)
    static let tag = Array(#","t":"#.utf8)
}

/// The fixed parts of a set's or an update's request text, as bytes.
private enum RequestTextParts {
    static let head = Array(#"{"t":"d","d":{"r":"#.utf8)
    static let action = Array(#","a":"#.utf8)
    static let body = Array(#","b":{"p":"#.utf8)
    /// `action`, a set's or an update's quoted code, then `body`.
    static let putAction = action + Array(#""p""#.utf8) + body
    static let mergeAction = action + Array(#""m""#.utf8) + body
    static let data = Array(#"","d":"#.utf8)
    static let hash = Array(#","h":"#.utf8)
    static let idempotencyKey = Array(#","ik":"#.utf8)
    static let tail = Array("}}}".utf8)
}
