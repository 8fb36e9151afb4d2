@testable import RTDBClient

extension ClientStore {
    /// The whole queue in write-id order, read as a restart reads it (``readWrites(firstChunk:chunk:)``).
    func loadWrites() throws -> [StoredWrite] {
        let read = readWrites()
        defer { read.stop() }
        var writes: [StoredWrite] = []
        while let chunk = try read.next() { writes += chunk }
        return writes
    }
}
