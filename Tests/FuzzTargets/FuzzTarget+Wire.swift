import RTDBCore
import RTDBWire

extension FuzzTarget {
    /// Frames split at newlines, reassembled as a server does, then read as messages and requests.
    ///
    /// A write read straight from its text (``WireWrite``) is the write the general reading (the
    /// message, the request, the data's conversion) makes of it, and the data's text it keeps
    /// for the log reads back to the same nodes.
    /// A message that parses prints as text that parses back to the same message. The texts
    /// written and read without a JSON tree agree with the parser and the printer: an
    /// acknowledgement read without parsing is what parsing reads, a data push read straight into
    /// nodes is the general reading's push and nodes, and a request's text written straight out
    /// is the envelope's.
    static func wire(_ bytes: [UInt8]) {
        // Counting entries as the client does: whatever the fragments, the count only grows
        // while a message arrives, and never past its bytes.
        var assembler = FrameAssembler(maxMessageBytes: 1 << 20, countsEntries: true)
        for frame in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let text: String?
            let before = assembler.progress?.entries ?? 0
            do {
                text = try assembler.receive(String(decoding: frame, as: UTF8.self))
            } catch {
                assembler = FrameAssembler(maxMessageBytes: 1 << 20, countsEntries: true)
                continue
            }
            if let progress = assembler.progress {
                fuzzInvariant(
                    progress.entries >= before && progress.entries <= progress.bytes,
                    "entries counted \(progress.entries) after \(before), in \(progress.bytes) bytes")
            }
            guard let text else { continue }
            if let number = WireMessage.acknowledgedNumber(inText: text) {
                fuzzInvariant(
                    (try? WireMessage(text: text)) == .response(number: number, status: .ok, data: ""),
                    "\(text) read as the acknowledgement of \(number), which the parser does not read")
            }
            if case .dataNode(let path, let node, let tag)? = WireMessage.dataPush(inText: text) {
                let general = try? WireMessage(text: text)
                guard case .push(.data(let generalPath, let data, let generalTag))? = general,
                    let generalNode = try? Node(json: data, at: generalPath)
                else {
                    let generally = String(describing: general)
                    fuzzInvariant(false, "\(text) read straight as a data push, the general way as \(generally)")
                    continue
                }
                fuzzInvariant(
                    generalPath == path && generalTag == tag && generalNode == node,
                    "\(text) read straight as \(node) at \(path), the general way as \(generalNode) at \(generalPath)")
            }
            if let write = WireWrite.read(text) {
                let general = generalReading(text)
                fuzzInvariant(
                    general == write,
                    "\(text) read straight as \(write), the general way as \(String(describing: general))")
                fuzzInvariant(
                    write.dataTextReadsBack, "\(text): the data's text \(write.dataText ?? "(none)") does not read back"
                )
            }
            guard let message = try? WireMessage(text: text) else { continue }
            let again = try? WireMessage(text: message.text)
            fuzzInvariant(
                again == message,
                "\(message) prints as \(message.text), which reads back as \(String(describing: again))")
            if case .request(_, let action, let body) = message,
                let request = try? ClientRequest(action: action, body: body)
            {
                let printed = WireMessage.request(1, request)
                fuzzInvariant(
                    (try? WireMessage(text: printed.text)) == printed, "request \(request) does not read back")
                fuzzInvariant(
                    WireMessage.requestText(1, request) == printed.text,
                    "request \(request) written straight out differs from its envelope's text")
            }
        }
    }

    /// The write the general reading makes of `text`: nil where it makes none, or refuses it.
    static func generalReading(_ text: String) -> WireWrite? {
        guard case .request(let number, let action, let body)? = try? WireMessage(text: text),
            let request = try? ClientRequest(action: action, body: body)
        else { return nil }
        return (try? WireWrite(number: number, request: request)) ?? nil
    }
}
