// The fuzzing entry point (`scripts/fuzz`): built with `-sanitize=fuzzer -DFUZZING`, it hands the
// target named by PRESENCETOP_FUZZ_TARGET to libFuzzer; built normally, it replays inputs:
//
//     presencetop-fuzz <target> <file or directory>...
import Foundation
import FuzzTargets

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzer(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The target the fuzzer drives, read from PRESENCETOP_FUZZ_TARGET at the first input.
    let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PRESENCETOP_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else { FuzzMain.fail("set PRESENCETOP_FUZZ_TARGET") }
        return target
    }()

    /// libFuzzer's entry for one input, called by its own `main` too.
    ///
    /// A debug build renames this program's `main` (SwiftPM does so that tests can link
    /// executables), and libFuzzer's own `main` runs instead.
    @_cdecl("LLVMFuzzerTestOneInput")
    func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        selected.run(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        return 0
    }
#endif

@main struct FuzzMain {
    static func main() {
        #if FUZZING
            _ = selected  // a missing or unknown target fails before the fuzzer starts
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzer(&argc, &argv) { start, count in testOneInput(start, count) })
        #else
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else { fail("name a target") }
            var count = 0
            for path in arguments.dropFirst() {
                for file in files(at: path) {
                    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
                    target.run(Array(data))
                    count += 1
                }
            }
            print("\(name): \(count) inputs, no crash")
        #endif
    }

    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }

    static func fail(_ reason: String) -> Never {
        let targets = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("presencetop-fuzz: \(reason) (one of: \(targets))\n".utf8))
        exit(64)
    }
}
