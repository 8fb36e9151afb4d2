import LinkSim
import Presence
import PresenceLab
import RTDBCore
import Testing

/// The timeline's diff and the scenario's steps: pure, no server.
@Suite struct PresenceChangeTests {
    private typealias Connection = UserPresence.Connection

    @Test func changesAreReadUserByUser() {
        let before: PresenceList = [
            UserPresence(id: "alex", connections: [Connection(id: "a1", device: "phone")]),
            UserPresence(id: "morgan", connections: [Connection(id: "m1", device: "phone")]),
        ]
        let after: PresenceList = [
            UserPresence(id: "alex", connections: [], lastOnline: UnixTime(millisecondsSince1970: 42)),
            UserPresence(
                id: "morgan",
                connections: [Connection(id: "m1", device: "phone"), Connection(id: "m2", device: "laptop")]),
            UserPresence(id: "sam", connections: [Connection(id: "s1", device: "tablet")]),
        ]
        #expect(
            PresenceChange.between(before, after) == [
                .deviceDisconnected(user: "alex", device: "phone", connections: 0),
                .userOffline(user: "alex", lastOnline: UnixTime(millisecondsSince1970: 42)),
                .deviceConnected(user: "morgan", device: "laptop", connections: 2),
                .deviceConnected(user: "sam", device: "tablet", connections: 1),
                .userOnline(user: "sam"),
            ])
        #expect(PresenceChange.between(after, after).isEmpty)
        // A flap seen between two looks: the entry changed, the user stayed online.
        let flapped: PresenceList = [UserPresence(id: "alex", connections: [Connection(id: "a2", device: "phone")])]
        #expect(
            PresenceChange.between(PresenceList(before.prefix(1)), flapped) == [
                .deviceDisconnected(user: "alex", device: "phone", connections: 1),
                .deviceConnected(user: "alex", device: "phone", connections: 1),
            ])
        #expect(
            "\(PresenceChange.deviceConnected(user: "morgan", device: "laptop", connections: 2))"
                == "morgan/laptop connected (2 connections)")
    }

    @Test func theScenarioIsRepeatableAndNetworksComeBack() {
        let states = Array(repeating: ChurnGenerator.DeviceState(network: .up, signedIn: true), count: 6)
        func run(seed: UInt64) -> [ChurnStep] {
            var generator = ChurnGenerator(seed: seed)
            var states = states
            return (0..<200).map { _ in
                let step = generator.next(states: states)
                switch step.action {
                case .network(let mode): states[step.device].network = mode
                case .signOut: states[step.device].signedIn = false
                case .signIn: states[step.device].signedIn = true
                }
                return step
            }
        }
        #expect(run(seed: 9) == run(seed: 9))
        #expect(run(seed: 9) != run(seed: 10))
        let steps = run(seed: 9)
        for mode in LinkMode.allCases {
            #expect(steps.contains { $0.action == .network(mode) }, "\(mode) happens")
        }
        #expect(steps.contains { $0.action == .signOut } && steps.contains { $0.action == .signIn })
        #expect(Set(steps.map(\.device)) == Set(0..<6), "every device has its turn")
    }

    /// Was: `é` and `e` with U+0301 were one user to the timeline, so one's arrival hid the other's.
    @Test func usersWhoseIdsAreCanonicallyEquivalentAreTwoUsers() {
        let composed = UserPresence(id: "\u{e9}", connections: [.init(id: "a", device: "phone", connectedAt: .epoch)])
        let decomposed = UserPresence(id: "e\u{301}")
        let changes = PresenceChange.between([decomposed], [decomposed, composed])
        #expect(changes.contains(.userOnline(user: "\u{e9}")), "\(changes)")
        #expect(changes.count == 2, "the new user's connection and arrival, nothing of the other: \(changes)")
    }
}
