import Foundation

/// The python that runs the interop scripts and the stand-ins (`.venv`, made by `.ci/run` from
/// Tests/Interop/requirements.txt, or `PRESENCETOP_PYTHON`).
///
/// Without it those tests are skipped locally; in CI (`CI=true`) they run, and a missing venv
/// fails them.
public enum InteropPython {
    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The python executable, if there is one.
    public static var url: URL? {
        if let configured = ProcessInfo.processInfo.environment["PRESENCETOP_PYTHON"] {
            return URL(fileURLWithPath: configured)
        }
        let venv = packageRoot.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: venv.path) ? venv : nil
    }

    /// Whether the tests that need it run: always in CI, else when there is one.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || url != nil }

    /// A script of Tests/Interop.
    public static func script(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Interop/\(name)")
    }
}
