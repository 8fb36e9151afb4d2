import Foundation

#if DEBUG
    /// A real fault on request, for the test that proves a crash gives the terminal back.
    ///
    /// A signal sent from outside (`kill -SEGV`) is not a fault: the crash handler restores the screen,
    /// but Swift's backtracer then returns and the process carries on. Set
    /// `PRESENCETOP_TEST_FAULT=trap` (a Swift runtime trap, as a failed `!` or `fatalError` raises) or
    /// `=segv` (a write to an unmapped page) and the dashboard faults once its first frame is drawn.
    /// Debug builds only (the ones the tests run): a release binary has no crash on request.
    enum TestFault: String {
        case trap, segv

        /// The fault the environment asks for, if any.
        static let requested = ProcessInfo.processInfo.environment["PRESENCETOP_TEST_FAULT"].flatMap(
            Self.init(rawValue:))

        /// Faults now.
        func trigger() {
            switch self {
            case .trap:
                fatalError("PRESENCETOP_TEST_FAULT=trap: a trap on request")
            case .segv:
                // The first page is never mapped on Linux, so this store faults with SIGSEGV.
                guard let unmapped = UnsafeMutablePointer<Int>(bitPattern: 0x10) else { return }
                unmapped.pointee = 1
            }
        }
    }
#endif
