// A helper for the crash test: writes in a loop with persistence on until it is killed.
//
//     CrashWriter <database url> <persistence directory> <first index> <count>
//     CrashWriter <database url> <persistence directory> --drain
//
// It says `started` first and `opening` before its first write (the store opens then, and the
// queue earlier runs left is replayed): the test kills it at one or the other, a point in its
// start-up, or after some writes.
//
// Each step sets `log/l<i>`, then updates `writes/w<i>`, `last` (= i) and increments `counter` in
// one multi-path update, then prints `done <i>`: a printed index means both calls had returned.
// (The test's rules let `last` only grow: a write sent out of order is refused, and shows missing.)
// After `count` steps it idles (still sending what is queued) until it is killed. `--drain` opens
// the same files, waits until the queue left by earlier runs has reached the server, and prints
// `drained`.
import Foundation
import RTDBClient

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5 else {
    FileHandle.standardError.write(
        Data("usage: CrashWriter <url> <directory> (<first index> <count> | --drain)\n".utf8))
    exit(64)
}
/// Writes a line at once (unbuffered: the process may be killed right after).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

say("started")
let database = Database(url: arguments[1])
database.persistenceDirectory = URL(fileURLWithPath: arguments[2])
database.isPersistenceEnabled = true

if arguments[3] == "--drain" {
    let drained = DispatchSemaphore(value: 0)
    database.waitForPendingWrites { drained.signal() }
    // While waiting, say what is left every few seconds (for the test's failure message).
    while drained.wait(timeout: .now() + 3) == .timedOut {
        let pending = database.pendingWrites
        FileHandle.standardError.write(
            Data(
                "\(Date()) waiting: \(pending.count) pending, first \(pending.prefix(3)), \(database.connectionStatus.phase)\n"
                    .utf8))
    }
    say("drained")
    exit(0)
}
guard arguments.count == 5, let first = Int(arguments[3]), let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("the first index and the count must be integers\n".utf8))
    exit(64)
}
// Opening the store replays what earlier runs queued: a kill may land anywhere in it.
say("opening")
let root = database.reference()
for index in first..<(first + count) {
    root.child("log/l\(index)").setValue(index)
    root.updateChildValues(["writes/w\(index)": index, "last": index, "counter": ServerValue.increment(1)])
    say("done \(index)")
}
while true { sleep(60) }
