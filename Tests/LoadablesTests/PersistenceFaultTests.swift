import Foundation
import XCTest

@testable import Loadables

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A writer killed with SIGKILL at random moments leaves only whole records: every file a
/// reader finds afterwards is a complete old or new record, never a torn one, and the only
/// debris is temporary files, which the next load removes.
///
/// The writer is this test binary run again (`/proc/self/exe`, Linux only) with a filter
/// that selects ``testCrashWriterChild()`` and an environment variable that makes that test
/// write until it is killed; run without it, that test returns at once. No executable target
/// (and so no product) is added for the tests' sake.
///
/// `LOADABLES_CRASH_KILLS` sets the number of kills (25 by default: about 3 s on the 2-core
/// CI machine, 18-21 s under ThreadSanitizer or AddressSanitizer, where each writer starts
/// slower); `.ci/crash-persistence [kills]` runs hundreds (300 in about 31 s). Measured: 300
/// kills, 1,800 files checked, 72 kills inside a write (their temporary files removed), 0 torn.
final class PersistenceFaultTests: XCTestCase {
  private static let directoryVariable = "LOADABLES_CRASH_WRITER_DIR"
  private static let startVariable = "LOADABLES_CRASH_WRITER_START"
  private static let keyCount = 6
  private static let rules = PersistenceRules(version: "crash")

  /// The value the writer saves as write number `sequence` (of key `sequence % keyCount`):
  /// 1 to 256 KiB, so that kills often land inside a write, and checkable from its first line.
  static func payload(_ sequence: Int) -> Data {
    // Cheap to make (the time a writer spends outside the write is time a kill cannot tear
    // anything), and distinct per sequence in its first line, its length and its filler.
    var bytes = Data("\(sequence) \(sequence % keyCount)\n".utf8)
    let length = 1_024 + (sequence &* 7_919) % (255 * 1_024)
    bytes.append(Data(repeating: UInt8(truncatingIfNeeded: sequence), count: length))
    return bytes
  }

  static func key(_ index: Int) -> PersistentKey {
    // Swift-only parts, so the identity cannot fail.
    PersistentKey(identity: "s5:crashi\(String(index).utf8.count):\(index)")
  }

  /// The writer: saves records for ever, printing `ack <key> <sequence>` after each write has
  /// returned. Does nothing unless run by ``testKilledWritersLeaveOnlyWholeRecords()``.
  func testCrashWriterChild() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.directoryVariable] else { return }
    let start = Int(ProcessInfo.processInfo.environment[Self.startVariable] ?? "0") ?? 0
    let backend = DirectoryPersistence(URL(fileURLWithPath: path))
    var sequence = start
    while true {
      let record = PersistedRecord(
        key: Self.key(sequence % Self.keyCount), value: Self.payload(sequence),
        savedAt: Date(timeIntervalSince1970: Double(sequence)), version: Self.rules.version)
      try backend.write(record, rules: Self.rules)
      // Unbuffered: the line is out before the next write starts.
      FileHandle.standardOutput.write(Data("ack \(sequence % Self.keyCount) \(sequence)\n".utf8))
      sequence += 1
    }
  }

  func testKilledWritersLeaveOnlyWholeRecords() throws {
    #if os(Linux)
      let kills = Int(ProcessInfo.processInfo.environment["LOADABLES_CRASH_KILLS"] ?? "") ?? 25
      let seed =
        UInt64(ProcessInfo.processInfo.environment["LOADABLES_CRASH_SEED"] ?? "")
        ?? UInt64.random(in: 0...UInt64.max)
      var random = SplitMix64(seed: seed)
      let directory = temporaryDirectory("crash")
      var newest = [Int: Int]()  // key -> the newest sequence known to be saved
      var filesChecked = 0
      var interrupted = 0  // kills that left a temporary file: they landed inside a write
      var torn = 0
      for kill in 0..<kills {
        let acknowledged = try runWriterAndKill(
          directory, start: kill * 10_000_000, afterAcks: 1 + random.below(30), seed: seed,
          random: &random)
        for (key, sequence) in acknowledged { newest[key] = max(newest[key] ?? -1, sequence) }

        let load = DirectoryPersistence(directory).loadAll(Self.rules, now: Date())
        for event in load.events {
          if case .removedTemporary = event {
            interrupted += 1
            continue
          }
          torn += 1
          XCTFail("kill \(kill) (seed \(seed)): \(event)")
        }
        for record in load.records {
          filesChecked += 1
          let text = String(decoding: record.value.prefix(40), as: UTF8.self)
          let fields = text.split(separator: "\n").first?.split(separator: " ") ?? []
          guard fields.count == 2, let sequence = Int(fields[0]), let key = Int(fields[1]),
            record.key == Self.key(key), record.value == Self.payload(sequence)
          else {
            torn += 1
            XCTFail(
              "kill \(kill) (seed \(seed)): record \(record.key) holds a value not written whole")
            continue
          }
          // Old or new, never older than what the writer acknowledged or a reader saw before.
          XCTAssertGreaterThanOrEqual(
            sequence, newest[key] ?? -1, "kill \(kill) (seed \(seed)): key \(key) went back")
          newest[key] = sequence
        }
        XCTAssertEqual(
          Set(load.records.map(\.key)), Set(newest.keys.map(Self.key)),
          "kill \(kill) (seed \(seed)): an acknowledged key has no record")
      }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      XCTAssertFalse(names.contains { $0.hasPrefix(DirectoryPersistence.temporaryPrefix) })
      // The killed writers' temporaries (and their lock files) went with the loads.
      let temporaries =
        (try? FileManager.default.contentsOfDirectory(
          atPath: directory.appendingPathComponent(DirectoryPersistence.temporaryFolder).path))
        ?? []
      XCTAssertEqual(temporaries, [], "kill \(kills) (seed \(seed)): temporary files stayed")
      print(
        "Crash-persistence: \(kills) kills, \(filesChecked) files checked, \(interrupted) kills "
          + "inside a write (temporary files removed), \(torn) torn (seed \(seed))")
    #endif
  }

  #if os(Linux)
    /// Starts a writer on `directory`, reads its acknowledgements until `afterAcks` writes
    /// have returned, kills it with SIGKILL, and returns the last acknowledged sequence of
    /// each key. Fails after 30 s without progress.
    private func runWriterAndKill(
      _ directory: URL, start: Int, afterAcks: Int, seed: UInt64, random: inout SplitMix64
    ) throws -> [Int: Int] {
      let writer = try ChildTestProcess(
        running: "LoadablesTests.PersistenceFaultTests/testCrashWriterChild",
        environment: [Self.directoryVariable: directory.path, Self.startVariable: String(start)])
      defer { writer.end() }

      var acknowledged: [Int: Int] = [:]
      var count = 0
      var firstAck: Int64?
      while count < afterAcks {
        switch writer.read(waitingUpTo: 30_000) {
        case .timedOut:
          XCTFail("seed \(seed): the writer acknowledged \(count) of \(afterAcks) writes in 30 s")
          return acknowledged
        case .ended:
          writer.process.waitUntilExit()
          XCTFail(
            "seed \(seed): the writer exited after \(count) writes: "
              + "\(writer.process.terminationReason)")
          return acknowledged
        case .lines(let lines):
          for text in lines {
            let line = text.split(separator: " ")
            guard line.count == 3, line[0] == "ack", let key = Int(line[1]),
              let sequence = Int(line[2])
            else { continue }
            acknowledged[key] = sequence
            count += 1
            if firstAck == nil { firstAck = FileCalls.now() }
          }
        }
      }
      // The last ack came just before the next write began, so killing now would always hit
      // the start of a cycle. Wait a random part of one cycle (the acks' mean interval, times
      // up to 1.5) first: this wait does not wait *for* anything, it only picks the moment.
      let cycle = count > 1 ? (FileCalls.now() - (firstAck ?? 0)) / Int64(count - 1) : 2_000_000
      let delay = Int64(random.below(1_000)) * cycle * 3 / 2_000
      usleep(UInt32(clamping: delay / 1_000))
      writer.kill()
      writer.process.waitUntilExit()
      XCTAssertEqual(writer.process.terminationReason, .uncaughtSignal, "seed \(seed)")
      return acknowledged
    }
  #endif
}
