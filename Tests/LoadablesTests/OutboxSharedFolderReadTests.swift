import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// The sender reads the shared outbox folder only when another store over it may have
/// written: an edit another store saves while this one holds the sender lock is still read
/// and sent from here, and nothing is read when nothing else wrote (every edit used to pay a
/// read of the whole folder at its lane's end).
@MainActor
final class OutboxSharedFolderReadTests: XCTestCase {
  struct RenamePost: OutboxEdit {
    static let name = "RenamePost"
    let id: Int
    let title: String

    var scope: LoadKey { ["posts", id] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {}
  }

  func testTheSenderReadsTheFolderOnlyAfterAnotherStoreSavedAnEdit() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("outbox-folder-read-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let (appClock, widgetClock) = (ManualClock(), ManualClock())
    let app = LoaderStore(clock: appClock, persistence: .directory(folder, version: "1"))
    let widget = LoaderStore(clock: widgetClock, persistence: .directory(folder, version: "1"))
    let (gateA, gateB, gateC) = (Gate<Void>(), Gate<Void>(), Gate<Void>())
    let gates = ["A": gateA, "B": gateB, "C": gateC]
    var sent: [String] = []
    app.register(RenamePost.self) { edit, _ in
      sent.append(edit.title)
      try await gates[edit.title]?.pass()
    }
    widget.register(RenamePost.self) { edit, _ in sent.append("widget: \(edit.title)") }

    app.edit(RenamePost(id: 1, title: "A"))
    app.edit(RenamePost(id: 1, title: "B"))
    await gateA.arrival()  // the app holds the sender lock
    // A file no store wrote (and that no store can read): a read of the folder removes it
    // and reports it, so it tells whether the sender read the folder.
    let stray = folder.appending(path: "Outbox/stray.loadable")
    try Data("not a record".utf8).write(to: stray)
    // Past the holder's periodic look: before the next send it looks again.
    appClock.advance(by: .seconds(1))
    gateA.open()
    await gateB.arrival()
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: stray.path),
      "the sender read the folder though no other store wrote: \(app.outbox.issues)")
    XCTAssertEqual(app.outbox.issues, [], "the sender read the folder though no other store wrote")

    // Another store saves an edit while the app holds the lock: the app reads the folder at
    // its lane's end, and sends that edit too.
    let fromWidget = widget.edit(RenamePost(id: 2, title: "C"))
    try await widgetClock.sleepers(count: 1)  // the widget waits for its turn
    gateB.open()
    await gateC.arrival()
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: stray.path), "the sender did not read the folder")
    XCTAssertEqual(app.outbox.issues.map(\.kind), [.unreadable], "\(app.outbox.issues)")
    gateC.open()
    await app.outbox.untilIdle()
    XCTAssertEqual(sent, ["A", "B", "C"])

    // The widget, taking the lock the app let go, reads that its edit was sent.
    widgetClock.advance(by: .seconds(1))
    let outcome = await fromWidget.outcome()
    guard case .committed = outcome else { return XCTFail("the widget's edit ended \(outcome)") }
    XCTAssertEqual(sent, ["A", "B", "C"], "an edit was sent twice")
  }
}
