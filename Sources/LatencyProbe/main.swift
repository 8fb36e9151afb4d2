import BenchWorkloads
import Foundation

// `presencetop-bench latency --callgrind` runs this under valgrind: the latency workload and
// nothing else (valgrind 3.19 cannot load the whole presencetop binary).
// Usage: presencetop-latency-probe SETS CHILDREN
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 2, arguments.allSatisfy({ $0 >= 0 }) else {
    print("usage: presencetop-latency-probe SETS CHILDREN")
    exit(2)
}
let samples = LatencyWorkload.run(sets: arguments[0], children: max(1, arguments[1]))
print("\(samples.count) sets")
