import BenchWorkloads
import Testing

/// What `server-writes --callgrind` counts reads the messages it makes, and says when one is not a
/// set (a count of nothing would look like a fast parser).
struct WireWorkloadTests {
    @Test func itReadsTheSetsItMakesAndRefusesAnythingElse() {
        let messages = WireWorkload.messages(10)
        #expect(messages.count == 10)
        #expect(WireWorkload.run(messages) == 20, "two children each: device and connectedAt")
        #expect(WireWorkload.run([]) == 0)
        #expect(WireWorkload.run(messages + [#"{"t":"c","d":{"t":"p","d":{}}}"#]) == nil)
        #expect(WireWorkload.run([#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/a.b","d":1}}}"#]) == nil)
    }
}
