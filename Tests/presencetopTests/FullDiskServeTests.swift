import Foundation
import RTDBTestSupport
import Testing

/// `presencetop serve` on a disk that fills up.
///
/// A real full file system (a small tmpfs, ENOSPC) or a file size limit (RLIMIT_FSIZE, EFBIG,
/// SIGXFSZ ignored), as a full disk looks to the program. Was: a log line twice a second, and
/// SIGTERM did not stop the server.
@Suite struct FullDiskServeTests {
    enum Fault: String, CaseIterable, Sendable {
        /// The data folder on a tmpfs of 3 MB.
        case fullFileSystem
        /// The server under an RLIMIT_FSIZE of 3 MB.
        case fileSizeLimit
    }

    /// 20 KB of JSON text.
    static let value = "\"" + String(repeating: "x", count: 20_000) + "\""

    @Test(arguments: Fault.allCases)
    func aFullDiskIsSaidOnceAndSIGTERMStillStopsTheServer(_ fault: Fault) async throws {
        switch fault {
        case .fullFileSystem:
            let ran = try await SmallDisk.using(bytes: 3_000_000) { disk in
                try await Self.fill(data: disk.url, fileSizeLimit: nil)
            }
            if ran == nil {
                #expect(!SmallDisk.required, "CI runs as root and must mount the small disk")
                print("skipped: this machine cannot mount a tmpfs (needs root); CI runs it")
            }
        case .fileSizeLimit:
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let acknowledged = try await Self.fill(data: folder, fileSizeLimit: 3_000_000)
            // Without the limit, every acknowledged write is there; the refused one is not.
            let (server, port) = try await ChildProcess.serve(["--data", folder.path])
            let stored = try await http("GET", "/big.json?ns=demo&shallow=true", port: port)
            let keys = stored.json?.objectValue?.count ?? 0
            #expect(keys == acknowledged, "\(keys) stored, \(acknowledged) acknowledged")
            #expect(try await http("GET", "/late.json?ns=demo", port: port).json == .null, "the refused write")
            server.signal(SIGTERM)
            #expect(try await server.waitForExit(seconds: 30) == 0)
        }
    }

    /// Writes 20 KB values until the disk takes no more, checks what the server says and that it
    /// stops on SIGTERM; returns how many writes were acknowledged.
    static func fill(data: URL, fileSizeLimit: Int?) async throws -> Int {
        let (server, port) = try await ChildProcess.serve(["--data", data.path], fileSizeLimit: fileSizeLimit)
        #expect(
            server.standardError.contains("free"), "serve says the data folder's free space:\n\(server.standardError)")
        let failing = "commits to namespace demo fail"
        let answers = Recorder<Int>()
        var acknowledged = 0
        for index in 0..<400 {
            Task {
                // Answered or not, never given up on early: a write past the client's patience
                // would be stored and not counted (the suite on two cores can hold one 20 s).
                let put = try? await http("PUT", "/big/\(index).json?ns=demo", port: port, body: value, attempts: 1_200)
                answers.record(put?.status ?? 0)
            }
            _ = await answers.wait(timeout: .seconds(150)) {
                $0.count > index || server.standardError.contains(failing)
            }
            if server.standardError.contains(failing) {
                // The write in flight may have been stored just before (the server says it is
                // failing as its next commit fails): its answer still counts. Every write on a
                // full disk is answered (checked below).
                _ = await answers.wait(timeout: .seconds(150)) { $0.count > index }
                if answers.all.count > index, answers.all[index] == 200 { acknowledged += 1 }
                print(
                    "full disk: write \(index) in flight as the disk filled was answered \(answers.all.count > index ? answers.all[index] : -1)"
                )
                break
            }
            if answers.all.last == 200 { acknowledged += 1 }
        }
        try #require(server.standardError.contains(failing), "the disk never filled:\n\(server.standardError)")
        // A write made while commits fail is tried at once, and refused soon: it does not fit either.
        let late = Recorder<Int>()
        Task { late.record((try? await http("PUT", "/late.json?ns=demo", port: port, body: value))?.status ?? 0) }
        #expect(await late.wait { !$0.isEmpty }, "a write on a full disk is answered before any stop")
        #expect(late.all == [503], "it is answered that it was not stored")
        // Another namespace is still served (a read needs no disk space).
        #expect(try await http("GET", "/.json?ns=other", port: port).status == 200)
        let stopping = ContinuousClock.now
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(seconds: 30) == 0, "SIGTERM stops it:\n\(server.standardError)")
        print(
            "full disk (\(fileSizeLimit == nil ? "tmpfs" : "RLIMIT_FSIZE")): \(acknowledged) writes acknowledged; SIGTERM stopped the server in \(ContinuousClock.now - stopping)"
        )
        let errors = server.standardError.components(separatedBy: "\n").filter { $0.contains(failing) }
        #expect(errors.count == 1, "said once, not on every retry: \(errors.count) lines")
        return acknowledged
    }

    /// Was: after the disk had room again and filled once more, a REST write got no answer (its
    /// wait began after its batch was refused, on a number later writes made again).
    @Test func aDiskThatFillsAgainAndAgainAnswersEveryWrite() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try await ChildProcess.serve(["--data", folder.path, "--lab-disk-faults"])
        #expect(try await http("PUT", "/a.json?ns=demo", port: port, body: "0").status == 200)
        for round in 1...3 {
            server.signal(SIGUSR1)
            #expect(try await eventually { server.standardError.components(separatedBy: "disk is full").count > round })
            for index in 0..<3 {
                let answer = Recorder<Int>()
                let body = "\(round * 10 + index)"
                Task { answer.record((try? await http("PUT", "/a.json?ns=demo", port: port, body: body))?.status ?? 0) }
                #expect(
                    await answer.wait { !$0.isEmpty }, "round \(round): a write on a full disk is answered")
                #expect(answer.all == [503], "round \(round): \(answer.all)")
            }
            server.signal(SIGUSR2)
            #expect(try await eventually { server.standardError.components(separatedBy: "given room").count > round })
            #expect(try await http("PUT", "/a.json?ns=demo", port: port, body: "\(round)").status == 200)
        }
        #expect(try await http("GET", "/a.json?ns=demo", port: port).body == "3")
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(seconds: 30) == 0)
    }
}
