import Foundation
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// The client keeps keys apart by code units too: two spellings of `é` are two locations, two
/// listeners, two query views.
@Suite struct CodeUnitKeyClientTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    @Test func twoSpellingsAreTwoLocationsWithTheirOwnListeners() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let database = server.client(time)
        let seen = Mutex<[String: Int]>([:])
        for (name, key) in [("composed", Self.composed), ("decomposed", Self.decomposed)] {
            database.reference(withPath: "k/\(key)").observe(.value) { snapshot in
                if let value = snapshot.value as? Int { seen.withLock { $0[name] = value } }
            }
        }
        try await database.reference(withPath: "k/\(Self.composed)").setValue(1)
        try await database.reference(withPath: "k/\(Self.decomposed)").setValue(2)
        try await database.serverRoundTrip()
        #expect(seen.withLock { $0 } == ["composed": 1, "decomposed": 2])
        #expect(try await database.reference(withPath: "k").getData().childrenCount == 2)

        // Queries whose bounds differ only by spelling are two views with their own results.
        try await database.reference(withPath: "names").setValue(["a": Self.composed, "b": Self.decomposed])
        for (value, key) in [(Self.composed, "a"), (Self.decomposed, "b")] {
            let result = try await database.reference(withPath: "names").queryOrderedByValue()
                .queryEqual(toValue: value).getData()
            #expect(result.childrenCount == 1)
            #expect(result.hasChild(key), "equalTo(\(value.unicodeScalars.map { String($0.value, radix: 16) }))")
        }
        database.close()
        await server.stop()
    }
}
