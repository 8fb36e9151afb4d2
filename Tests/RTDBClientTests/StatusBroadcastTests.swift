import Dispatch
import RTDBCore
import Synchronization
import Testing

@testable import RTDBClient

/// The connection's status as the app sees it, alone: the last one for any thread, each change
/// to every observer in order, and the gauges read into it.
@Suite struct StatusBroadcastTests {
    @Test func eachStatusIsReadableAtOnceAndReachesEveryObserverInOrder() {
        let broadcast = StatusBroadcast()
        let callbacks = DispatchQueue(label: "test.callbacks")
        let changes = ChangeSignal()
        #expect(broadcast.current == ConnectionStatus(phase: .offline))
        broadcast.publish(ConnectionStatus(phase: .connecting(attempt: 1)), on: callbacks, changes: changes)
        #expect(broadcast.current.phase == .connecting(attempt: 1))
        #expect(changes.generation == 1, "no observer: signalled once")

        let seen = Mutex<[String: [ConnectionPhase]]>([:])
        for name in ["a", "b"] {
            broadcast.observers[DatabaseHandle(name == "a" ? 1 : 2)] = { status in
                seen.withLock { $0[name, default: []].append(status.phase) }
            }
        }
        broadcast.publish(ConnectionStatus(phase: .connected(sessionID: "s1")), on: callbacks, changes: changes)
        broadcast.publish(ConnectionStatus(phase: .offline), on: callbacks, changes: changes)
        callbacks.sync {}
        let expected: [ConnectionPhase] = [.connected(sessionID: "s1"), .offline]
        #expect(seen.withLock { $0 } == ["a": expected, "b": expected])
        #expect(changes.generation == 5, "signalled when published and after the observers ran")
    }

    @Test func theGaugesSayWhenTheServerWasHeardAndWhatIsArriving() {
        let gauges = ArrivalGauges()
        let idle = gauges.annotating(ConnectionStatus(phase: .offline))
        #expect(idle.lastHeardAt == nil && idle.arriving == nil)
        gauges.heard(at: UnixTime(millisecondsSince1970: 1_000))
        gauges.show((bytes: 70_000, fragments: 3, of: 5, entries: 12))
        let arriving = gauges.annotating(ConnectionStatus(phase: .offline))
        #expect(arriving.lastHeardAt == UnixTime(millisecondsSince1970: 1_000))
        #expect(arriving.arriving == ConnectionStatus.ArrivingMessage(bytes: 70_000, fragments: 3, of: 5, entries: 12))
        gauges.show(nil)
        #expect(gauges.annotating(ConnectionStatus(phase: .offline)).arriving == nil)
    }
}
