import Foundation
import Loadables

/// The offline scene's world: a server the app cannot always reach, and a directory that
/// outlives the app (a temporary one, removed when the scene ends).
@MainActor
final class OfflineWorld {
  /// The server's articles, by id, and the idempotency keys it has applied.
  private(set) var titles: [Int: String] = [1: "Trains run late", 2: "Rain tomorrow"]
  private var applied: Set<String> = []
  /// How many renames the server applied (a key sent twice counts once).
  private(set) var renames = 0
  let connectivity = Connectivity(isOnline: true)
  let directory = FileManager.default.temporaryDirectory
    .appending(path: "loadables-demo-\(UUID().uuidString)", directoryHint: .isDirectory)
  let pace: Pace

  init(pace: Pace) { self.pace = pace }

  /// `GET /articles`; fails while offline, as a real request would.
  func articles() async throws -> [Article] {
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    guard connectivity.isOnline else { throw URLError(.notConnectedToInternet) }
    return titles.keys.sorted().map { Article(id: $0, title: titles[$0] ?? "") }
  }

  /// `PATCH /articles/{id}` with an idempotency key: a key already applied changes nothing.
  func rename(_ id: Int, to title: String, idempotencyKey: String) async throws {
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    guard connectivity.isOnline else { throw URLError(.notConnectedToInternet) }
    guard applied.insert(idempotencyKey).inserted else { return }
    renames += 1
    titles[id] = title
  }

  /// A store over the world's directory, as the app makes one at each launch.
  func launch(startDate: Date = Date()) -> LoaderStore {
    let store = LoaderStore(
      persistence: .directory(directory, version: "demo-1"), connectivity: connectivity,
      startDate: startDate)
    store.register(RenameArticle.self) { edit, context in
      try await self.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
    }
    return store
  }

  func feed(in store: LoaderStore) -> SharedLoader<[Article]> {
    store.loader(for: ["articles"], staleTime: .seconds(600)) { try await self.articles() }
  }

  func removeDirectory() {
    try? FileManager.default.removeItem(at: directory)
  }
}

struct Article: Codable, Equatable, Sendable {
  let id: Int
  var title: String
}

/// An edit the app may have to send later: saved before it is sent, sent once.
struct RenameArticle: OutboxEdit {
  static let name = "RenameArticle"
  let id: Int
  let title: String

  var scope: LoadKey { ["articles", id] }
  var invalidates: [LoadKey] { [["articles"]] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    guard let feed = store.existingLoader(for: ["articles"], as: [Article].self) else { return }
    edit.update(feed) { articles in
      for index in articles.indices where articles[index].id == id {
        articles[index].title = title
      }
    }
  }
}

extension DemoScreen {
  /// The feed as a screen shows it offline: its articles, how old they are, and each edit
  /// waiting to sync with the reason it waits.
  static func offlineFeed(_ store: LoaderStore, _ feed: SharedLoader<[Article]>, now: Date)
    -> String
  {
    var header = store.connectivity?.isOnline == false ? "offline" : "online"
    if let fetchedAt = feed.fetchedAt {
      let hours = Int(now.timeIntervalSince(fetchedAt) / 3600)
      header += hours > 0 ? " · fetched \(hours) h ago" : " · fetched just now"
    }
    if feed.isStale { header += " · stale" }
    if feed.isWaitingForNetwork {
      header += " · waiting for the network"
    } else if feed.isRunning {
      header += " · refreshing…"
    }
    let pending = store.outbox.pendingCount
    if pending > 0 { header += " · \(pending) change\(pending == 1 ? "" : "s") waiting to sync" }
    var lines = [header]
    switch feed.state {
    case .absent: lines.append("  (nothing)")
    case .loading: lines.append("  loading…")
    case .error(let error): lines.append("  error: \(error)")
    case .loaded(let articles):
      lines += articles.map { "  • \($0.title)" }
    }
    // Each edit not synced yet, with the reason the outbox gives for it.
    for item in store.outbox.items {
      lines.append(
        "  ⇅ \(item.name) \(item.scopeKey.map { "\($0)" } ?? "?"): \(syncReason(item.status, now: now))"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// Why an edit of the outbox has not synced yet, in words.
  static func syncReason(_ status: OutboxItem.Status, now: Date) -> String {
    switch status {
    case .ready: "about to be sent"
    case .sending: "sending…"
    case .waitingForNetwork: "waiting for the network"
    case .backingOff(let attempt, let nextTry):
      "attempt \(attempt) failed, next try in "
        + "\(max(0, Int(nextTry.timeIntervalSince(now).rounded(.up)))) s"
    case .waitingBehind: "waiting behind an earlier edit of the article"
    case .waitingToSave: "not saved yet, saving again soon"
    case .waitingForHandler: "no handler registered for it"
    case .failed(let reason): "failed: \(reason)"
    }
  }
}
