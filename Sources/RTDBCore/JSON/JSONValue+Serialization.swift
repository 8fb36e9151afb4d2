extension JSONValue {
    /// Compact JSON text (no spaces), as Firebase clients send and expect.
    public var jsonString: String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Indented JSON text, for `print=pretty` and for people.
    public var prettyJSONString: String {
        var output: [UInt8] = []
        writePretty(to: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends compact JSON text as UTF-8 to `output`.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.description.utf8)
        case .string(let string): JSONValue.writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeString(key.string, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private func writePretty(to output: inout [UInt8], indent: Int) {
        func pad(_ level: Int) { output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2)) }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(contentsOf: "[\n".utf8)
            for (offset, element) in elements.enumerated() {
                pad(indent + 1)
                element.writePretty(to: &output, indent: indent + 1)
                output.append(contentsOf: (offset < elements.count - 1 ? ",\n" : "\n").utf8)
            }
            pad(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            output.append(contentsOf: "{\n".utf8)
            for (offset, member) in members.enumerated() {
                pad(indent + 1)
                JSONValue.writeString(member.key.string, to: &output)
                output.append(contentsOf: ": ".utf8)
                member.value.writePretty(to: &output, indent: indent + 1)
                output.append(contentsOf: (offset < members.count - 1 ? ",\n" : "\n").utf8)
            }
            pad(indent)
            output.append(UInt8(ascii: "}"))
        default:
            write(to: &output)
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        writeEscaped(string, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `string` escaped as inside a JSON string, without the quotes (a caller writing a
    /// string in parts, such as a path's segments, quotes the whole).
    public static func writeEscaped(_ string: String, to output: inout [UInt8]) {
        // Runs of bytes that need no escape are copied at once.
        ByteScan.withBytes(of: string) { bytes in
            var start = 0
            while true {
                let index = ByteScan.firstNeedingEscape(bytes, from: start)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                guard index < bytes.count else { return }
                writeEscape(bytes[index], to: &output)
                start = index + 1
            }
        }
    }

    private static func writeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
        case 0x0A: output.append(contentsOf: "\\n".utf8)
        case 0x0D: output.append(contentsOf: "\\r".utf8)
        case 0x09: output.append(contentsOf: "\\t".utf8)
        case 0x08: output.append(contentsOf: "\\b".utf8)
        case 0x0C: output.append(contentsOf: "\\f".utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: "\\u00".utf8)
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0xF)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { jsonString }
}
