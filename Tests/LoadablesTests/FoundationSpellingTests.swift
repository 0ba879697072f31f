import Foundation
import Loadables
import XCTest

// This file imports Foundation, where a bare `@Process` is ambiguous with
// `Foundation.Process`. These are the spellings the README promises compile here.
@MainActor
private final class EditorModel {
  @Loadables.Process var saving: SingleProcessState
  @LoadableProcess var publishing: SingleProcessState
  @Loadables.Process var action: ProcessState<Action>
  @Loadables.Process var unannotated
  @Loadable var numbers: LoadableState<[Int]>

  enum Action: Equatable, Sendable { case save, delete }
}

@MainActor
final class FoundationSpellingTests: XCTestCase {
  func testModuleQualifiedProcessRunsInAFileThatImportsFoundation() async {
    let model = EditorModel()
    await model.$saving.run {}
    XCTAssertTrue(model.saving.hasFinished)
    await model.$action.run(.delete) {}
    XCTAssertTrue(model.action.hasFinished(.delete))
    XCTAssertTrue(model.unannotated.isIdle)
  }

  func testAliasRunsInAFileThatImportsFoundation() async {
    let model = EditorModel()
    await model.$publishing.run { throw TestError(code: 1) }
    XCTAssertTrue(model.publishing.hasFailed)
    XCTAssertEqual(model.publishing.error as? TestError, TestError(code: 1))
  }

  func testFoundationProcessStillResolves() {
    // The library must not shadow Foundation's type where it is spelled out.
    let process = Foundation.Process()
    XCTAssertFalse(process.isRunning)
  }
}
