import BenchWorkloads
import Foundation

// `presencetop-bench latency --callgrind` and `server-writes --callgrind` run this under
// valgrind: one workload and nothing else (valgrind 3.19 cannot load the whole presencetop
// binary).
// Usage: presencetop-latency-probe SETS CHILDREN | presencetop-latency-probe --wire MESSAGES
//        | presencetop-latency-probe --rules WRITES | presencetop-latency-probe --drain-prepare WRITES DIRECTORY | presencetop-latency-probe --drain DIRECTORY
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 3, arguments[0] == "--drain-prepare", let count = Int(arguments[1]), count >= 0 {
    DrainWorkload.prepare(writes: count, directory: URL(fileURLWithPath: arguments[2]))
    print("\(count) writes queued")
    exit(0)
}
if arguments.count == 2, arguments[0] == "--drain" {
    DrainWorkload.drain(directory: URL(fileURLWithPath: arguments[1]))
    print("drained")
    exit(0)
}
if arguments.count == 2, arguments[0] == "--wire", let count = Int(arguments[1]), count >= 0 {
    // Every run makes the same messages, so that a run reading none counts their making too.
    let messages = WireWorkload.messages(2_000)
    guard let children = WireWorkload.run(messages.prefix(count)) else {
        print("a message did not read as a set")
        exit(1)
    }
    print("\(min(count, messages.count)) messages, \(children) children")
    exit(0)
}
if arguments.count == 2, arguments[0] == "--rules", let count = Int(arguments[1]), count >= 0 {
    let refused = RulesWorkload.run(count)
    print("\(count) writes judged, \(refused) refused")
    exit(refused == 0 ? 0 : 1)
}
let numbers = arguments.compactMap { Int($0) }
guard numbers.count == 2, numbers.allSatisfy({ $0 >= 0 }) else {
    print(
        "usage: presencetop-latency-probe SETS CHILDREN | --wire MESSAGES | --rules WRITES | --drain-prepare WRITES DIRECTORY | --drain DIRECTORY"
    )
    exit(2)
}
let samples = LatencyWorkload.run(sets: numbers[0], children: max(1, numbers[1]))
print("\(samples.toEvent.count) sets")
