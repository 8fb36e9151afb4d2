import RTDBCore
import Testing

@testable import RTDBCore

@Suite struct PushIDGeneratorTests {
    @Test func shapeAndAlphabet() {
        var generator = PushIDGenerator(random: SeededRandom(seed: 1))
        let id = generator.next(now: UnixTime(millisecondsSince1970: 1_724_150_000_000))
        #expect(id.utf8.count == 20)
        #expect(id.utf8.allSatisfy { PushIDGenerator.alphabet.contains($0) })
        #expect(PushIDGenerator.timestamp(of: id)?.millisecondsSince1970 == 1_724_150_000_000)
        // Current times start with '-' (the first character encodes bits 42–47).
        #expect(id.hasPrefix("-"))
        try? Validation.validateKey(id)
    }

    @Test func thousandIdsInOneMillisecondSortInCreationOrder() {
        var generator = PushIDGenerator(random: SeededRandom(seed: 42))
        let ids = (0..<1000).map { _ in generator.next(now: UnixTime(millisecondsSince1970: 1_724_150_000_123)) }
        #expect(Set(ids).count == 1000)
        #expect(ids.sorted(by: UTF16Order.lessThan) == ids)
        #expect(ids.map { ChildKey($0) }.sorted() == ids.map { ChildKey($0) })
    }

    @Test func incrementCarriesAcrossDigits() {
        // A generator whose random digits are all 63 ('z') must carry on increment.
        struct AllOnes: RandomNumberGenerator, Sendable {
            mutating func next() -> UInt64 { .max }
        }
        var generator = PushIDGenerator(random: AllOnes())
        let first = generator.next(now: UnixTime(millisecondsSince1970: 5))
        let second = generator.next(now: UnixTime(millisecondsSince1970: 5))
        #expect(first.hasSuffix("zzzzzzzzzzzz"))
        #expect(second.hasSuffix("------------"))
    }

    @Test func laterTimesSortLater() {
        var generator = PushIDGenerator(random: SeededRandom(seed: 7))
        var previous = ""
        for time in stride(from: Int64(1_000), to: 1_000_000_000_000, by: 99_999_999_999) {
            let id = generator.next(now: UnixTime(millisecondsSince1970: time))
            #expect(UTF16Order.lessThan(previous, id))
            previous = id
        }
    }

    @Test func injectedRandomnessIsDeterministic() {
        var a = PushIDGenerator(random: SeededRandom(seed: 9))
        var b = PushIDGenerator(random: SeededRandom(seed: 9))
        #expect(a.next(now: UnixTime(millisecondsSince1970: 77)) == b.next(now: UnixTime(millisecondsSince1970: 77)))
    }
}
