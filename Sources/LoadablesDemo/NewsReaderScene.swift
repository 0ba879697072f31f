import Foundation
import Loadables
import Observation

// The news reader's scene: the shared-data model a reader app needs, all in one store. A
// paged feed shared by two screens, a detail that starts from the tapped row, the next rows'
// details prefetched at low priority, a rename shown on the detail and in the feed's row (and
// rolled back when refused), and a logout that empties the store. No overlay, no placeholder
// code in the screens: the definitions and the store do it.

/// A row of the feed, as the server's list returns it.
struct NewsRow: Sendable, Equatable {
  let id: Int
  var title: String
}

/// An article, as the server's detail returns it; `body` is `nil` in a placeholder made from
/// a feed row.
struct NewsArticle: Sendable, Equatable {
  let id: Int
  var title: String
  var body: String?
}

/// A fake news server: a feed of two pages (three rows, then two), each article's detail, and
/// a rename that refuses a shouted title. It logs every request in order, and can hold the
/// article requests at a gate so the scene shows who the limiter serves first.
actor NewsServer {
  let pace: Pace
  private var titles: [Int: String] = [
    1: "Trains run late", 2: "Rain tomorrow", 3: "New bridge opens", 4: "Library extends hours",
    5: "Market reopens",
  ]
  /// The requests that reached the server, in order: `"GET /articles/1"`.
  private(set) var log: [String] = []
  /// The article requests held at the gate, while it is closed.
  private var held: [CheckedContinuation<Void, Never>] = []
  private var isHolding = false

  init(pace: Pace) { self.pace = pace }

  /// `GET /articles?page=N`: rows 1–3, then 4–5 and the end.
  func feedPage(_ page: Int) async throws -> Page<NewsRow, Int> {
    log.append("GET /articles?page=\(page)")
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    let ids = page == 1 ? [1, 2, 3] : [4, 5]
    return Page(
      items: ids.map { NewsRow(id: $0, title: titles[$0] ?? "") }, next: page == 1 ? 2 : nil)
  }

  /// `GET /articles/{id}`; waits at the gate while it is closed.
  func article(_ id: Int) async throws -> NewsArticle {
    log.append("GET /articles/\(id)")
    if isHolding { await withCheckedContinuation { held.append($0) } }
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    guard let title = titles[id] else { throw APIError.notFound }
    return NewsArticle(id: id, title: title, body: "\(id * 100 + 20) words")
  }

  /// `PATCH /articles/{id}`: refuses a title in capitals.
  func rename(_ id: Int, to title: String) async throws {
    log.append("PATCH /articles/\(id)")
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    guard title != title.uppercased() else { throw APIError.titleShouts }
    titles[id] = title
  }

  /// Closes the gate: article requests wait until ``openGate()``.
  func closeGate() { isHolding = true }

  /// Opens the gate and lets the held requests go, in the order they came.
  func openGate() {
    isHolding = false
    let waiting = held
    held = []
    for request in waiting { request.resume() }
  }

  /// How many article requests wait at the gate.
  var heldCount: Int { held.count }
}

/// The feed: one paged entry under `["articles"]`, described once; every screen asks the
/// store for the entry of this definition.
struct FeedQuery: PagedLoadDefinition {
  static let key: LoadKey = ["articles"]
  let server: NewsServer

  var key: LoadKey { Self.key }
  var source: PagedSource<NewsRow, Int> {
    PagedSource(first: 1) { [server] page in try await server.feedPage(page) }
  }
}

/// One article's detail: its key, its fetch through the downloads limiter, and a placeholder
/// made from the feed's row, shown until the fetch lands.
struct ArticleQuery: LoadDefinition {
  let id: Int
  let server: NewsServer
  let downloads: ConcurrencyLimiter

  var key: LoadKey { ["articles", id] }
  /// Only the limit differs from the store's defaults; the stale time is the store's.
  var policy: LoadPolicy<NewsArticle>? { .limit(downloads) }

  func fetch() async throws -> NewsArticle { try await server.article(id) }

  @MainActor func placeholder(in store: LoaderStore) -> NewsArticle? {
    // Reads the feed only if a screen asked for it: a placeholder never makes an empty feed.
    store.existingPagedLoader(for: FeedQuery.key, as: NewsRow.self, cursor: Int.self)?
      .state.items.first { $0.id == id }
      .map { NewsArticle(id: $0.id, title: $0.title, body: nil) }
  }
}

/// The reader app: one store with store-wide defaults, the feed's two screens (a tab and a
/// widget) and the detail on screen.
@MainActor @Observable
final class NewsReader {
  @ObservationIgnored let server: NewsServer
  @ObservationIgnored let store = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(60)))
  /// One permit: article fetches wait in line, the screen's ahead of the prefetches.
  @ObservationIgnored let downloads = ConcurrencyLimiter(limit: 1)
  /// The feed the screens show, once they have asked for it.
  private(set) var feedOnScreen: SharedPagedLoader<NewsRow, Int>?
  /// The detail on screen, if any.
  private(set) var detail: SharedLoader<NewsArticle>?

  init(pace: Pace) {
    server = NewsServer(pace: pace)
  }

  /// The feed's entry: the same object for every screen that asks.
  var feed: SharedPagedLoader<NewsRow, Int> { store.pagedLoader(for: FeedQuery(server: server)) }

  /// The definition of one article's detail.
  func article(_ id: Int) -> ArticleQuery {
    ArticleQuery(id: id, server: server, downloads: downloads)
  }

  /// Plays the scene: `note` prints a line between frames; `check` stops the demo (or fails
  /// a test) when the library did not do what the line says.
  func play(
    note: (String) async -> Void,
    check: (_ condition: Bool, _ what: String) -> Void
  ) async {
    await note("store defaults: staleTime \(store.defaults.staleTime), the rest as given")

    // Two screens, one list: both open at once, both reach the last row at once.
    let tab = feed
    let widget = feed
    let observers = [tab.observe(), widget.observe()]
    check(tab === widget, "the tab and the widget got two entries")
    feedOnScreen = tab
    async let tabOpened = tab.load()
    async let widgetOpened = widget.load()
    await until { self.store.isRunning }
    await note("both screens open: one fetch, \(activity), observers \(tab.observerCount)")
    _ = await (tabOpened, widgetOpened)
    async let tabPaged: Void = tab.loadNextPage()
    async let widgetPaged: Void = widget.loadNextPage()
    _ = await (tabPaged, widgetPaged)
    let paging = await server.log
    await note("the last row shows on both screens; requests: \(paging.joined(separator: ", "))")
    check(
      paging == ["GET /articles?page=1", "GET /articles?page=2"] && tab.state.items.count == 5
        && tab.state.nextPage == .end,
      "the feed's pages were not fetched once each")

    // The user's finger rests over rows 2 and 3: their details are prefetched.
    await server.closeGate()
    store.prefetch(article(2), ifOlderThan: .seconds(30), priority: .prefetch)
    store.prefetch(article(3), ifOlderThan: .seconds(30), priority: .prefetch)
    await until { await self.server.heldCount == 1 && self.downloads.waitingCount == 1 }
    await note(
      "rows 2 and 3 are about to be read: their details prefetch at .prefetch priority, "
        + "one permit (\(activity))")

    // Row 1 is tapped: the detail starts from the row, and its load jumps the prefetch line.
    let opened = store.loader(for: article(1))
    detail = opened
    check(
      opened.isPlaceholder && opened.state.data == NewsArticle(id: 1, title: "Trains run late"),
      "the detail did not start from the feed's row")
    await note(
      "tap row 1: the detail shows the row as a placeholder (isPlaceholder: "
        + "\(opened.isPlaceholder)) while its own load waits at .userInitiated")
    let load = Task { await opened.load() }
    await until { self.downloads.waitingCount == 2 }
    await note("\(activity); the server answers:")
    await server.openGate()
    _ = await load.value
    await store.loader(for: article(3)).load()
    let order = await server.log.dropFirst(2)
    await note(
      "article requests in order: \(order.joined(separator: ", ")) "
        + "(the screen's before the prefetch behind it)")
    check(
      Array(order) == ["GET /articles/2", "GET /articles/1", "GET /articles/3"],
      "the screen's load was not served before the prefetch")
    check(
      !opened.isPlaceholder && opened.state.data?.body != nil, "the detail kept its placeholder")
    await note("the detail's fetch landed: isPlaceholder \(opened.isPlaceholder), \(activity)")
    let settings = opened.settings
    await note(
      "ArticleQuery states only its policy: staleTime \(settings.staleTime) (the store's), "
        + "policy \(settings.policy)")
    check(settings.staleTime == .seconds(60), "the definition did not get the store's stale time")

    // A rename shows on the detail and in the feed's row at once.
    await rename(1, to: "Trains run on time", opened, note: note, check: check)
    check(
      opened.state.data?.title == "Trains run on time"
        && tab.state.items.first?.title == "Trains run on time",
      "the committed rename did not stay on both screens")

    // A refused rename goes back exactly to what both showed.
    let detailBefore = opened.state
    let feedBefore = tab.state
    await rename(1, to: "TRAINS RUN ON TIME", opened, note: note, check: check)
    check(
      opened.state == detailBefore && tab.state == feedBefore,
      "the refused rename was not rolled back exactly")
    await note("rolled back: both show “\(opened.state.data?.title ?? "")” again")

    // Logout while the feed refreshes.
    let refresh = Task { await tab.refresh() }
    await until { self.store.isRunning }
    await note("logout while the feed refreshes: \(activity)")
    for observer in observers { observer.end() }
    let removal = store.remove(["articles"])
    detail = nil
    _ = await refresh.value
    await note(
      "store.remove([\"articles\"]): \(removal.entryCount) entries removed, "
        + "\(store.count) left; \(activity); the feed shows \(tab.state.list)")
    check(
      removal.entryCount == 4 && store.count == 0 && !store.isRunning
        && store.runningCount == 0 && !tab.state.list.isLoaded,
      "the logout left something behind")
  }

  /// Renames an article through `store.edit`, updating the detail and the feed's row, and
  /// notes what each `edit.update` did and how the server answered.
  private func rename(
    _ id: Int, to title: String, _ detail: SharedLoader<NewsArticle>,
    note: (String) async -> Void,
    check: (_ condition: Bool, _ what: String) -> Void
  ) async {
    let feed = feed
    var results: [SharedEdit.UpdateResult] = []
    do {
      try await store.edit { edit in
        results.append(edit.update(detail) { $0.title = title })
        results.append(
          edit.update(feed) { rows in
            for index in rows.indices where rows[index].id == id { rows[index].title = title }
          })
      } perform: {
        await note(
          "rename to “\(title)”: edit.update → detail .\(results[0]), feed .\(results[1]); "
            + "both show it while the server works")
        check(
          detail.state.data?.title == title && feed.state.items.first?.title == title,
          "the optimistic rename did not show on both screens")
        try await server.rename(id, to: title)
      }
      await note("the server accepted: committed")
    } catch {
      await note("the server refused: \(error)")
    }
    check(results == [.updated, .updated], "an update found no value")
  }

  /// `isRunning true, runningCount 2`.
  var activity: String {
    "isRunning \(store.isRunning), runningCount \(store.runningCount)"
  }

  /// Waits, a turn at a time, until `condition` holds; gives up after five seconds.
  private func until(_ condition: () async -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(5)
    while await !condition(), ContinuousClock.now < deadline { await Task.yield() }
  }
}

extension DemoScreen {
  /// The reader's screens: the store's activity, the feed (one entry for the tab and the
  /// widget) and the detail on screen.
  static func newsReader(_ reader: NewsReader) -> String {
    let store = reader.store
    var header = "store: " + (store.isRunning ? "fetching \(store.runningCount)" : "idle")
    guard let feed = reader.feedOnScreen else { return header }
    if feed.isRunning, feed.state.list.isLoaded, !feed.state.nextPage.isLoading {
      header += " · feed refreshing…"
    }
    var lines = [header]
    let paged = feed.state
    switch paged.list {
    case .absent: lines.append("  feed: (nothing)")
    case .loading: lines.append("  feed: loading…")
    case .error(let error): lines.append("  feed: error: \(error)")
    case .loaded(let rows):
      var footer = ""
      switch paged.nextPage {
      case .loading: footer = " · loading page…"
      case .end: footer = " · end"
      case .failed(let error): footer = " · page failed: \(error)"
      case .idle: break
      }
      lines.append(
        "  feed: " + rows.map { "\($0.id) \($0.title)" }.joined(separator: " | ") + footer)
    }
    if let detail = reader.detail {
      var line = "  detail \(detail.key): "
      switch detail.state {
      case .absent: line += "(nothing)"
      case .loading: line += "loading…"
      case .error(let error): line += "error: \(error)"
      case .loaded(let article):
        line += "“\(article.title)” " + (article.body ?? "…")
        if detail.isPlaceholder { line += " (placeholder)" }
      }
      if detail.isRunning { line += " ⟳" }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
