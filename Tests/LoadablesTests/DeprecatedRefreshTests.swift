import Loadables
import LoadablesTesting
import XCTest

/// The 0.3 spellings of a reload that keeps the value (`refetch`, now `refresh`) still
/// compile and behave as their replacements do: an entry's `refetch()`, a paged entry's
/// `refetching:` mode, and a paged definition that states `refetch`.
///
/// The build treats warnings as errors, so the deprecated calls live in deprecated methods
/// of `V03RefreshSpellings`, reached through the protocol they satisfy (see
/// `DeprecatedSpellingsTests`).
@MainActor
final class DeprecatedRefreshTests: XCTestCase {
  func testAnEntrysRefetchRefreshesItKeepingTheValue() async throws {
    try await V03RefreshSpellings.checks().checkEntryRefetch()
  }

  func testThePagedRefetchModeAndADefinitionStatingRefetchRefreshEveryLoadedPage() async throws {
    try await V03RefreshSpellings.checks().checkPagedRefetchMode()
  }
}

@MainActor
protocol V03RefreshChecks {
  func checkEntryRefetch() async throws
  func checkPagedRefetchMode() async throws
}

/// A paged definition written for 0.3: it states `refetch`, not `refreshedPages`.
@available(*, deprecated, message: "states the 0.3 refetch mode on purpose")
private struct V03FeedQuery: PagedLoadDefinition {
  let server: PageServer
  var key: LoadKey { ["feed"] }
  var staleTime: Duration? { .seconds(60) }
  var refetch: PagedRefetch { .allLoadedPages }
  var source: PagedSource<Int, Int> {
    PagedSource(first: 1) { [server] cursor in try await server.fetch(cursor) }
  }
}

private struct V03RefreshSpellings: V03RefreshChecks {
  /// The checks, seen only through the protocol.
  static func checks() -> any V03RefreshChecks { V03RefreshSpellings() }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkEntryRefetch() async throws {
    let store = LoaderStore()
    // Each fetch is held until the test answers it (a gate, once opened, would let the
    // refetch through with the first value).
    let api = ScriptedFake<Void, Int>(otherwise: .hold)
    let entry = store.loader(for: ["count"], staleTime: .seconds(60)) { try await api.call() }
    let load = Task { await entry.load() }
    try await api.release(returning: 1)
    _ = await load.value
    // Fresh, yet fetched again, keeping the value on screen while it runs.
    let refetch = Task { await entry.refetch() }
    try await api.arrival(count: 2)
    XCTAssertEqual(entry.state, .loaded(1), "the 0.3 refetch blanked the value")
    XCTAssertTrue(entry.isRunning, "the 0.3 refetch did not fetch a fresh value")
    try await api.release(returning: 2)
    let state = await refetch.value
    XCTAssertEqual(state, .loaded(2), "the 0.3 refetch did not return the state")
    XCTAssertEqual(entry.state, .loaded(2))
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkPagedRefetchMode() async throws {
    for useDefinition in [false, true] {
      let store = LoaderStore()
      let server = PageServer()
      let mode: PagedRefetch = .allLoadedPages
      let feed =
        useDefinition
        ? store.pagedLoader(for: V03FeedQuery(server: server))
        : store.pagedLoader(
          for: ["feed"], staleTime: .seconds(60), refetching: mode, source: server.source())
      let load = Task { await feed.load() }
      await server.answer(0, with: page(1))
      _ = await load.value
      let next = Task { await feed.loadNextPage() }
      await server.answer(1, with: page(2))
      await next.value

      let refresh = Task { await feed.refresh() }
      await server.answer(2, with: Page(items: [7], next: 2))
      await server.answer(3, with: page(2))
      _ = await refresh.value
      XCTAssertEqual(
        server.calls, [1, 2, 1, 2],
        "the 0.3 mode (definition: \(useDefinition)) did not refresh every loaded page")
      XCTAssertEqual(feed.state.items, [7] + items(2))
    }
  }
}
