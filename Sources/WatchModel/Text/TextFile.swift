import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a person named (a scenario, a theme, the settings file, a recording, a rules file),
/// read with an error that says what is wrong in words: a folder, a device, too big, not UTF-8
/// (with the line), rather than Foundation's `NSCocoaErrorDomain error 256`.
///
/// The path is opened once and checked through the open descriptor, so what is checked is what
/// is read; a FIFO or a device is refused without blocking or reading forever.
public enum TextFile {
    /// Why a file could not be read: the path and the problem.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path as given.
        public var path: String
        /// The line, for text that is not UTF-8.
        public var line: Int?
        /// What is wrong, in words.
        public var problem: String
        /// Whether the file does not exist (a settings file may be absent).
        public var isMissing = false

        /// `path:line: problem`.
        public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)" }
    }

    /// The most bytes read from a file of settings or a script.
    public static let defaultLimit = 16 << 20

    /// The file's bytes.
    ///
    /// - Throws: ``Failure`` naming what the path is when it is not a regular file, or why it
    ///   cannot be opened or read, or that it is over `limit` bytes.
    public static func bytes(at path: String, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        func fail(_ problem: String, missing: Bool = false) -> Failure {
            Failure(path: path, problem: problem, isMissing: missing)
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let number = errno
            switch number {
            case ENOENT: throw fail("no such file", missing: true)
            case EACCES: throw fail("cannot be read: permission denied")
            default: throw fail("cannot be opened: \(String(cString: strerror(number)))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw fail("cannot be read: \(String(cString: strerror(errno)))") }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw fail("is a folder, not a file")
        case S_IFCHR, S_IFBLK: throw fail("is a device, not a regular file")
        default: throw fail("is not a regular file (a pipe or a socket)")
        }
        guard Int(status.st_size) <= limit else {
            throw fail("is \(Int(status.st_size) >> 20) MiB; the most read is \(limit >> 20) MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw fail("cannot be read: \(String(cString: strerror(errno)))") }
            if count == 0 { break }  // shorter than it was: read what is there
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The file's text, which must be UTF-8.
    ///
    /// - Throws: ``Failure`` as ``bytes(at:limit:)`` does, or naming the line of the first byte
    ///   that is not UTF-8.
    public static func text(at path: String, limit: Int = defaultLimit) throws(Failure) -> String {
        try text(of: bytes(at: path, limit: limit), path: path)
    }

    /// `bytes` as UTF-8 text.
    ///
    /// - Throws: ``Failure`` naming the line and the first byte that is not UTF-8.
    public static func text(of bytes: [UInt8], path: String) throws(Failure) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var offset = 0
        var scalarStart = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                offset += UTF8.width(scalar)
                scalarStart = offset
            case .emptyInput: break decoding
            case .error:
                let byte = scalarStart < bytes.count ? bytes[scalarStart] : 0
                throw Failure(
                    path: path, line: line,
                    problem: "not UTF-8 text (byte 0x\(String(byte, radix: 16, uppercase: true)))")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
