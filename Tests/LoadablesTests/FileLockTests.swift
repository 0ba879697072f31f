import Foundation
import XCTest

@testable import Loadables

/// The OS file lock that makes one store of every process over a folder the outbox's sender.
/// Its file stays open between holds, so each take checks that the file it locks is still the
/// one at its path.
final class FileLockTests: XCTestCase {
  private func lockPath() throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileLockTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder.appendingPathComponent(".loadables-sender.lock").path
  }

  func testAReleasedLockIsTakenByAnotherAndTakenBackWithItsFileKeptOpen() throws {
    let path = try lockPath()
    let first = FileLock(path: path)
    let second = FileLock(path: path)
    XCTAssertTrue(first.tryLock())
    XCTAssertFalse(second.tryLock(), "two holders of one lock")
    first.unlock()
    XCTAssertFalse(first.isHeld)
    XCTAssertGreaterThanOrEqual(first.descriptor, 0, "the released lock's file was closed")
    XCTAssertTrue(second.tryLock(), "a released lock was not released")
    XCTAssertFalse(first.tryLock(), "two holders of one lock")
    second.unlock()
    XCTAssertTrue(first.tryLock(), "the lock was not taken again on the file kept open")
  }

  func testALockFileRemovedBetweenHoldsIsTakenOnTheNewFileNotTheOldOne() throws {
    let path = try lockPath()
    let first = FileLock(path: path)
    XCTAssertTrue(first.tryLock())
    first.unlock()
    // Removed by hand while `first` keeps it open: another holder makes a new file.
    XCTAssertEqual(unlink(path), 0)
    let second = FileLock(path: path)
    XCTAssertTrue(second.tryLock())
    XCTAssertFalse(
      first.tryLock(), "the lock was taken on a removed file while another holds the new one")
    second.unlock()
    XCTAssertTrue(first.tryLock(), "the lock was not taken on the new file")
    XCTAssertFalse(FileLock(path: path).tryLock(), "the lock taken is not the new file's")
  }
}
