import Dashboard
import DashboardRuntime
import LabDashboard
import Testing

/// Each of the dashboard's keys on a live simulation, in memory: what it does to this device or
/// the population shows on screen.
extension LiveDashboardTests {
    @Test func eachKeyActsOnThisDeviceOrThePopulation() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            users: 3, width: 160, height: 48, configure: { $0.devicesPerUser = 2 },
            [
                .until("who this device is, and until when") {
                    $0.contains("● connected") && $0.contains("Events") && $0.contains("as morgan  token until ")
                },
                LiveDashboard.keys("t"),
                .until("t runs a transaction that commits") {
                    $0.contains("transaction on counters/morgan/taps committed: 1")
                },
                // The embedded server runs the presence rules: another user's presence is not ours.
                LiveDashboard.keys("r"),
                .until("a dead letter with Firebase's words and the rules' reason") {
                    $0.contains("Dead letters (1)")
                        && $0.contains("refused: permission_denied Permission denied: no .write rule allows writing")
                },
                LiveDashboard.keys("a"),
                .until("a expires the credential") { $0.contains("credential expired: writes paused") },
                LiveDashboard.keys("w"),
                .until("a write waits, paused, while connected") {
                    $0.contains("Pending writes (1)") && $0.contains("paused")
                },
                LiveDashboard.keys("a"),
                .until("a signs in again and the write goes") {
                    $0.contains("signed in again") && $0.contains("Pending writes (0)") && $0.contains("token until")
                },
                LiveDashboard.keys("l"),
                .until("l adds latency to this device's link") {
                    $0.contains("link now 400 ms") && $0.contains("(slow)")
                },
                LiveDashboard.keys("l"), .until("l again takes it off") { !$0.contains("(slow)") },
                LiveDashboard.keys("+"),
                .until("+ moves this device's clock, and the Clock skew pane says so") {
                    $0.contains("clock moved: now +1.0 s") && $0.contains("clock moved +1.0 s")
                },
                // The step as measured (wall against monotonic progress): about a second.
                .until("the client notices the step itself, within its ping interval") {
                    $0.contains("clock jump of +") && $0.contains("noticed: server time re-estimated at once")
                },
                LiveDashboard.keys("T"), .until("T goes to the next theme") { $0.contains("theme ansi") },
                LiveDashboard.keys("d"),
                .until("d adds a device") {
                    $0.contains("  added") && $0.contains("Presence (3 users, ")
                        && $0.contains(" online, 8 connections)")
                },
                LiveDashboard.keys("x"),
                .until("x crashes one, and the server ends its presence") {
                    $0.contains("crashed (no goodbye)") && $0.contains("Presence (3 users, ")
                        && $0.contains(" online, 7 connections)")
                },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
        #expect(terminal.themes.count == 1, "T set the next theme on the terminal")
    }
}
