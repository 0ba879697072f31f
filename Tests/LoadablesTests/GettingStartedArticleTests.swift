import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

// The examples of the "Getting Started" article, copied verbatim, in a file that imports
// Foundation. Keep this file and the article in step.
//
// Its declarations (`Book`, `BookAPI`) and its `LibraryModel`, `BookEditorModel`, `ShelfModel`
// and `BookDetailModel` are the README's, which ReadmeExamplesTests.swift compiles and runs;
// `testTheSharedDeclarationsAreTheREADMEs` checks that the article still shows the same code.
// Not compiled here: the `Package.swift` block (a manifest), and the SwiftUI blocks. Of
// those, `.ci/swiftui-check` type-checks `BooksView` (Tests/SwiftUIStandIn/ClientUsage.swift);
// the overlay, the `.task` fragments, `ReloadButton` and `FilesView` are not compiled
// anywhere yet.

// MARK: - Article: Yield states over time

protocol PagedBookAPI: Sendable {
  func pages() -> AsyncThrowingStream<[Book], any Error>
}

// MARK: - Article: Run jobs with Process (data in a store)

@MainActor @Observable
final class StoreBackedModel {
  var books: [Book] = []
  @ObservationIgnored @Loadables.Process var loading: SingleProcessState
  private let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  func refresh() async {
    await $loading.run(silently: !books.isEmpty) { [api] in
      self.books = try await api.books()
    }
  }
}

// MARK: - Article: Interrupt a slow load

@MainActor
final class HintModel {
  @Loadable var books: LoadableState<[Book]>
  var isSlow = false
  let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  func refreshWithHint() {
    isSlow = false
    $books.load(interrupts: [.seconds(2), .seconds(8)]) { [api] in
      try await api.books()
    } onInterrupt: { accumulated in
      if accumulated < .seconds(10) {
        self.isSlow = true
      } else {
        throw TimeoutError()
      }
    }
  }
}

// MARK: - Article: Troubleshooting (the fixed spellings)

enum Troubleshooting {
  @MainActor @Observable
  final class LibraryModel {
    @ObservationIgnored @Loadable var books: LoadableState<[Book]>
    @ObservationIgnored @LoadableProcess var saving: SingleProcessState
  }

  @MainActor
  final class DraftModel {
    @Loadables.Process var saving: SingleProcessState
    @LoadableProcess var publishing: SingleProcessState
  }
}

// MARK: - Tests

@MainActor
final class GettingStartedArticleTests: XCTestCase {
  private let dune = Book(id: 1, title: "Dune")
  private let emma = Book(id: 2, title: "Emma")

  func testAYieldingLoadWritesEachPage() async {
    @Loadable var books: LoadableState<[Book]>
    let api: any PagedBookAPI = StreamedBooks(list: [[dune], [emma]])
    var seen: [LoadableState<[Book]>] = []
    let recorder = StateRecorder($books)

    await $books.load { [api] yield in
      var books: [Book] = []
      for try await page in api.pages() {  // an AsyncThrowingStream<[Book], any Error>
        books += page
        yield(.loaded(books))
      }
    }

    seen = recorder.states
    recorder.stop()
    XCTAssertEqual(seen, [.absent, .loading, .loaded([dune]), .loaded([dune, emma])])
  }

  func testAStoreBackedModelShowsOnlyThePhase() async {
    let model = StoreBackedModel(api: Books([dune]))
    await model.refresh()
    XCTAssertEqual(model.books, [dune])
    XCTAssertTrue(model.loading.hasFinished)

    // A second refresh runs silently: the phase never goes back to running over the list.
    let recorder = StateRecorder(model.$loading)
    await model.refresh()
    XCTAssertEqual(recorder.states.count, 2, "expected the old phase, then the new finish")
    XCTAssertFalse(recorder.states.contains { $0.isRunning }, "a silent refresh showed running")
    XCTAssertTrue(model.loading.hasFinished)
    recorder.stop()
  }

  func testStatingTheTypeGivesTheTaskReturningForm() async {
    @Loadable var books: LoadableState<[Book]>
    let api: any BookAPI = Books([dune])

    // Article: Await a load from .task
    let task: Task<Void, Never> = $books.load { [api] in try await api.books() }

    XCTAssertEqual(books, .loading)
    await task.value
    XCTAssertEqual(books, .loaded([dune]))
  }

  func testAResetLoadableFromTheBlockWritesAbsent() async {
    @Loadable var books: LoadableState<[Book]>
    let api: any BookAPI = Books([dune])
    for isSignedIn in [true, false] {
      // Article: Control a load from its block
      let task: Task<Void, Never> =
        $books.load { [api, isSignedIn] in
          guard isSignedIn else { throw ResetLoadable() }
          return try await api.books()
        }
      await task.value
      XCTAssertEqual(books, isSignedIn ? .loaded([dune]) : .absent)
    }
  }

  // Article: What each operation writes — "`cancel()` never leaves a spinner with nothing
  // running", and `reset()` goes back to `.absent` whatever was shown.
  func testCancelBringsBackWhatTheLoadReplacedAndResetWritesAbsent() async {
    @Loadable var books: LoadableState<[Book]>
    let gate = Gate<[Book]>()

    // A cancelled first load goes back to `.absent`.
    let _: Task<Void, Never> = $books.load { try await gate.pass() }
    XCTAssertEqual(books, .loading)
    $books.cancel()
    XCTAssertEqual(books, .absent, "a cancelled first load left its spinner")

    // A cancelled reload goes back to the value it was reloading.
    books = .loaded([dune])
    let _: Task<Void, Never> = $books.load { try await gate.pass() }
    XCTAssertEqual(books, .loading)
    $books.cancel()
    XCTAssertEqual(books, .loaded([dune]), "a cancelled reload lost its value")

    // A load that restarted a load, then cancelled: what was there before the first spinner.
    let _: Task<Void, Never> = $books.load { try await gate.pass() }
    let _: Task<Void, Never> = $books.load { try await gate.pass() }
    XCTAssertEqual(books, .loading)
    $books.cancel()
    XCTAssertEqual(books, .loaded([dune]), "a cancelled restart did not bring the value back")

    // reset() writes `.absent`, whatever was shown.
    let _: Task<Void, Never> = $books.load { try await gate.pass() }
    $books.reset()
    XCTAssertEqual(books, .absent)
    XCTAssertFalse($books.isRunning)
    gate.open([emma])
  }

  func testRefreshWithHintLoadsWithoutAHintWhenTheAPIAnswersAtOnce() async throws {
    let model = HintModel(api: Books([dune]))
    model.isSlow = true
    model.refreshWithHint()
    XCTAssertFalse(model.isSlow, "refreshWithHint starts by clearing the hint")
    try await StateRecorder(model.$books).wait(until: \.isLoaded)
    XCTAssertEqual(model.books, .loaded([dune]))
    XCTAssertFalse(model.isSlow)
  }

  func testTheTroubleshootingSpellingsCompileAndRun() async {
    let library = Troubleshooting.LibraryModel()
    await library.$books.load { [] }
    XCTAssertEqual(library.books, .loaded([]))
    await library.$saving.run {}
    XCTAssertTrue(library.saving.hasFinished)

    let draft = Troubleshooting.DraftModel()
    await draft.$saving.run {}
    await draft.$publishing.run {}
    XCTAssertTrue(draft.saving.hasFinished)
    XCTAssertTrue(draft.publishing.hasFinished)
  }

  func testTheSharedDeclarationsAreTheREADMEs() throws {
    let article = try source("Docs/Loadables.docc/Articles/GettingStarted.md")
    let readme = try source("README.md")
    // The README (a short front door since 0.4) shows these three; the article's other
    // models are compiled by GettingStartedArticleTests and ReadmeExamplesTests.
    for name in ["struct Book", "protocol BookAPI", "final class LibraryModel"] {
      let declaration = try XCTUnwrap(
        Self.declaration(name, in: article), "GettingStarted no longer declares \(name)")
      XCTAssertEqual(
        Self.declaration(name, in: readme), declaration,
        "GettingStarted's \(name) differs from the README's, which ReadmeExamplesTests compiles")
    }
  }

  /// The text of a file of the package, found from this file's path.
  private func source(_ path: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// From the line that declares `name` to the first closing brace at the start of a line.
  private static func declaration(_ name: String, in text: String) -> Substring? {
    guard
      let start = text.range(of: "\n" + name + " ")
        ?? text.range(of: "\n" + name + ":")
    else { return nil }
    guard let end = text.range(of: "\n}\n", range: start.upperBound..<text.endIndex) else {
      return nil
    }
    return text[start.lowerBound..<end.upperBound]
  }
}

/// Answers at once with a fixed list.
private struct Books: BookAPI {
  let list: [Book]
  init(_ list: [Book]) { self.list = list }
  func books() async throws -> [Book] { list }
  func save(_ book: Book) async throws {}
  func delete(_ id: Book.ID) async throws {}
}

/// Streams fixed pages.
private struct StreamedBooks: PagedBookAPI {
  let list: [[Book]]
  func pages() -> AsyncThrowingStream<[Book], any Error> {
    AsyncThrowingStream { continuation in
      for page in list { continuation.yield(page) }
      continuation.finish()
    }
  }
}
