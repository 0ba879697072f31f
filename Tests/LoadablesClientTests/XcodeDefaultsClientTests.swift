import Foundation
import Loadables
import LoadablesTesting
import XCTest

// Every form of the library used with the plain types of ClientTypes.swift, in a module with
// Xcode 26's defaults. That it compiles is half the test (each form's generic signature
// accepts a type whose Equatable, Hashable or Codable conformance is main-actor isolated);
// each test also runs the form and checks what it wrote.
//
// The class is `nonisolated` as a test class in such a module is: Linux's XCTest declares a
// nonisolated `init(name:testClosure:)` that a main-actor subclass cannot inherit.

private let posts = [
  Post(id: 1, title: "One"), Post(id: 2, title: "Two"), Post(id: 3, title: "Three"),
]

nonisolated final class XcodeDefaultsClientTests: XCTestCase {
  @MainActor
  func testPropertyWrappersTakeTheModulesTypes() async throws {
    let model = EditorModel()
    let recorder = StateRecorder(model.$action.handle)

    await model.$post.load { posts[0] }
    await model.$action.run(.save) {}
    await model.$feed.load(from: source())
    await model.$feed.loadNextPage(from: source())

    XCTAssertEqual(model.post, .loaded(posts[0]))
    XCTAssertEqual(model.action, .finished(.save))
    XCTAssertTrue(model.action.hasFinished(.save))
    XCTAssertEqual(model.feed.items, posts)
    XCTAssertEqual(recorder.states, [.idle, .running(.save), .finished(.save)])
    recorder.stop()
  }

  @MainActor
  func testAJobKindsEqualityDecidesWhatRunsAgain() async throws {
    let model = EditorModel()
    let gate = LoadablesTesting.Gate<Void>()
    let first = model.$action.start(.save) { try await gate.pass() }
    try await gate.arrival()
    XCTAssertTrue(model.action.isRunning(.save))
    XCTAssertFalse(model.action.isRunning(.delete))
    gate.open()
    await first.value
    XCTAssertEqual(model.action, .finished(.save))
  }

  @MainActor
  func testACheckoutTappedTwiceRunsOnce() async throws {
    // A payment button: a second tap while the first payment runs is ignored, in the
    // wrapper form and the key-path form; the first payment is never cancelled.
    let model = EditorModel()
    let support = SupportModel()
    let gate = LoadablesTesting.Gate<Void>()
    var payments = 0
    let pay = LoadPolicy<Void>.ignoreStartsWhileRunning()
    let first = model.$action.start(.save, policy: pay) {
      payments += 1
      try await gate.pass()
    }
    let other: Task<Void, Never> = support.run(\.action, as: .save, policy: pay) {
      payments += 1
      try await gate.pass()
    }
    try await gate.arrival(count: 2)
    model.$action.start(.delete, policy: pay) { payments += 1 }
    await model.$action.run(.delete, policy: pay) { payments += 1 }
    await support.run(\.action, as: .delete, policy: pay) { payments += 1 }
    XCTAssertEqual(payments, 2, "a second tap ran its payment")
    XCTAssertEqual(model.action, .running(.save))
    XCTAssertEqual(support.action, .running(.save))
    gate.open()
    await first.value
    await other.value
    XCTAssertEqual(model.action, .finished(.save), "the first payment was cancelled")
    XCTAssertEqual(support.action, .finished(.save), "the first payment was cancelled")
  }

  @MainActor
  func testAJobWithAPolicyShowsItsFailedAttemptsWithItsKind() async throws {
    // A retry that shows its failed attempts writes `.failed(process: .save, …)` from inside
    // the policy: the kind travels with the load to the main actor, where it is written.
    let model = EditorModel()
    let recorder = StateRecorder(model.$action.handle)
    let clock = ManualClock()
    var calls = 0
    let job = model.$action.start(
      .save,
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw ClientError.offline }
    }
    try await recorder.wait(until: { $0.hasFailed(.save) })
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await job.value
    XCTAssertEqual(model.action, .finished(.save))
    XCTAssertEqual(recorder.states.first, .idle)
    XCTAssertEqual(recorder.states.last, .finished(.save))
    recorder.stop()
  }

  @MainActor
  func testKeyPathFormsTakeTheModulesTypes() async throws {
    let model = SupportModel()
    let process = StateRecorder(model.handle(\.action))
    let paged = StateRecorder(model.handle(\.feed))

    await model.load(\.post) { posts[1] }
    await model.run(\.action, as: .delete) {}
    model.start(\.action, as: .save) {}
    try await process.wait(until: { $0 == .finished(.save) })
    await model.load(\.feed, from: source())
    await model.loadNextPage(\.feed, from: source())

    XCTAssertEqual(model.post, .loaded(posts[1]))
    XCTAssertEqual(model.feed.items, posts)
    XCTAssertEqual(paged.last.items, posts)
    XCTAssertEqual(
      process.states,
      [.idle, .running(.delete), .finished(.delete), .running(.save), .finished(.save)])
    process.stop()
    paged.stop()
  }

  // LoadingView 1.0.4's Demo: `@State private var loader = BlockLoadable { ... }`.
  @MainActor
  func testABlockLoaderIsAViewsStoredPropertysInitialValue() async {
    let screen = GreetingScreen()

    let state = await screen.loader.load()

    XCTAssertEqual(state, .loaded("hello"))
  }

  @MainActor
  func testLoaderObjectsTakeTheModulesTypes() async throws {
    let loader = PostLoader(posts: posts)
    let recorder = StateRecorder(loader.handle)
    await loader.load()
    XCTAssertEqual(loader.state, .loaded(posts))

    let pages = PagedLoader(source: source())
    await pages.load()
    await pages.loadNextPage()
    XCTAssertEqual(pages.state.items, posts)
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(posts)])
    recorder.stop()
  }

  @MainActor
  func testStoreEntriesTakeTheModulesTypes() async throws {
    let store = LoaderStore()
    store.keepInSync(Post.self)
    let list = store.loader(for: ["posts", Tab.inbox]) { posts }
    let detail = store.loader(for: ["post", Tab.inbox, 2]) { Post(id: 2, title: "Two, again") }
    let recorder = StateRecorder(list.handle)
    await list.load()
    await detail.load()
    XCTAssertEqual(list.state.data?[1], Post(id: 2, title: "Two, again"))
    XCTAssertEqual(recorder.last.data?[1].title, "Two, again")

    let paged = store.pagedLoader(for: ["feed", Tab.archive], source: source())
    await paged.load()
    await paged.loadNextPage()
    XCTAssertEqual(paged.state.items.map(\.id), [1, 2, 3])

    let definition = store.pagedLoader(for: PostPages(posts: posts))
    await definition.load()
    XCTAssertEqual(definition.state.items, Array(posts.prefix(2)))

    // The same key, made again from its parts, finds the same entry.
    XCTAssertTrue(store.loader(for: ["posts", Tab.inbox]) { [Post]() } === list)
    recorder.stop()
  }

  @MainActor
  func testASavedEntryAndAnEditComeBackAfterARelaunch() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("XcodeDefaultsClientTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }

    // First launch: a fetch is saved, and an edit is queued while the server refuses it.
    do {
      let store = LoaderStore(persistence: .directory(directory, version: "1"))
      store.register(RenamePost.self) { _, _ in throw ClientError.offline }
      let list = store.loader(for: ["posts", Tab.archive]) { posts }
      await list.load()
      let ticket = store.edit(RenamePost(id: 3, title: "Renamed offline"))
      try await ticket.wait(until: .queued)
      XCTAssertEqual(list.state.data?[2].title, "Renamed offline")
      await store.flushPersistence()
    }

    // Second launch: the saved list shows at once; the queued edit is laid over it and sent
    // once its type is registered.
    let store = LoaderStore(persistence: .directory(directory, version: "1"))
    let sending = LoadablesTesting.Gate<Void>()
    let list = store.loader(for: ["posts", Tab.archive], staleTime: .seconds(3600)) { posts }
    XCTAssertEqual(list.state.data?.map(\.id), [1, 2, 3])
    store.register(RenamePost.self) { edit, _ in
      XCTAssertEqual(edit.title, "Renamed offline")
      try await sending.pass()
    }
    try await sending.arrival()
    XCTAssertEqual(list.state.data?[2].title, "Renamed offline")
    sending.open()
    try await waitUntil(
      "the edit to be sent", seen: "pending: \(store.outbox.pendingCount)"
    ) { store.outbox.pendingCount == 0 }
  }

  @MainActor
  func testAStatesStreamCarriesTheModulesTypes() async throws {
    let model = EditorModel()
    var states = model.$action.handle.states.makeAsyncIterator()
    let first = await states.next()
    XCTAssertEqual(first, .idle)
    model.$action.start(.delete) {}
    let running = await states.next()
    XCTAssertEqual(running, .running(.delete))
  }

  @MainActor
  func testAReloadThatBringsTheSameValueWritesNothing() async throws {
    // Equality of a value whose Equatable is main-actor isolated, checked on the main actor.
    let model = EditorModel()
    await model.$post.load { posts[0] }
    let recorder = StateRecorder(model.$post.handle)
    await model.$post.load(silently: true) { posts[0] }
    try await recorder.expectNoMoreStates()
    XCTAssertEqual(recorder.states, [.loaded(posts[0])])
    recorder.stop()
  }
}

@MainActor
private func source() -> PagedSource<Post, PageToken> {
  PagedSource(first: PageToken(offset: 0)) { token in
    let end = min(token.offset + 2, posts.count)
    return Page(
      items: Array(posts[token.offset..<end]),
      next: end < posts.count ? PageToken(offset: end) : nil)
  }
}
