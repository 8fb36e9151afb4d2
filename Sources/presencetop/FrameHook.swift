import Dashboard
import Foundation

/// What the dashboard's loop calls after each frame it draws.
enum FrameHook {
    /// In debug builds, the fault a test asked for (`PRESENCETOP_TEST_FAULT`), once a frame with
    /// a snapshot is drawn; nothing otherwise.
    static var afterFrame: (@Sendable (DashboardState) -> Void)? {
        #if DEBUG
            guard let fault = TestFault.requested else { return nil }
            return { state in if state.snapshot != nil { fault.trigger() } }
        #else
            return nil
        #endif
    }
}
