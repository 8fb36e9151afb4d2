import Foundation

/// A task executor with a thread of its own: tasks that prefer it run there, not on the shared
/// pool, so a race test keeps its pace however busy the rest of the suite keeps the pool (a test
/// that hops 15,000 times behind a pool full of simulated runs' yields can take minutes).
///
/// Written here because swift-nio's `ManualTaskExecutor` is package-only and runs its jobs only
/// when asked.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `stopped` are read and written only with `condition` held.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts the thread, named `name`; it runs until ``stop()``.
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on this executor's thread, after the jobs before it.
    func enqueue(_ job: UnownedJob) {
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Ends the thread once the jobs already given have run.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func run() {
        while let batch = nextJobs() {
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The jobs waiting, once there are some; nil once stopped with none left.
    private func nextJobs() -> [UnownedJob]? {
        condition.withLock {
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else { return nil }
            defer { jobs.removeAll(keepingCapacity: true) }
            return jobs
        }
    }
}
