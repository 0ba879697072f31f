import Foundation
import Loadables
import LoadablesInspector

// `--inspect`: the scenes that use a store, shown through the inspector's model as text (the
// model `StoreInspectorView` shows on a device), a frame each time its snapshot changes.

extension DemoScript {
  /// Plays the news reader's scene with the inspector's table as the view, then the
  /// inspector's actions on a small store of its own.
  func playInspecting() async {
    await inspectedNewsReader()
    await inspectorActions()
    print("\nDone.")
  }

  private func inspectedNewsReader() async {
    let reader = NewsReader(pace: pace)
    let inspector = StoreInspector(store: reader.store)
    defer { inspector.stopListening() }
    let view: @MainActor (DemoModel) -> String = { _ in inspector.renderTable() }
    await scene(
      "The news reader's store, as the inspector shows it (a frame per change it sees)",
      view: view
    ) {
      await reader.play(
        note: { await note($0) },
        check: { condition, what in expect(condition, what) })
      inspector.refresh()
      await note(
        "after the logout the store is empty; the feed's history stays in the inspector:\n"
          + indented(inspector.renderEntry(FeedQuery.key)))
    }
  }

  private func inspectorActions() async {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let key: LoadKey = ["posts", 1]
    let pace = pace
    // No retry: the failure the inspector makes shows at once.
    let post = store.loader(for: key, staleTime: .seconds(60), policy: LoadPolicy()) {
      try await Task.sleep(for: pace.scaled(.milliseconds(300)))
      return "Trains run on time"
    }
    let inspector = StoreInspector(store: store)
    defer { inspector.stopListening() }
    let view: @MainActor (DemoModel) -> String = { _ in inspector.renderTable() }
    await scene(
      "The inspector's actions: make the next fetch fail, pretend to be offline, invalidate",
      view: view
    ) {
      let token = post.observe()
      await post.load()
      await note("failNextFetch(of: \(key)), then refresh(\(key)):")
      inspector.failNextFetch(of: key, with: APIError.serverUnavailable)
      inspector.refresh(key)
      await post.load()
      expect(post.state.isError)
      await note("isSimulatingOffline = true, then refresh: the fetch waits for the network")
      inspector.isSimulatingOffline = true
      let refresh = Task { await post.refresh() }
      await until { post.isWaitingForNetwork }
      inspector.refresh()
      await note("isSimulatingOffline = false: the fetch goes on")
      inspector.isSimulatingOffline = false
      _ = await refresh.value
      expect(post.state.data == "Trains run on time" && connectivity.isOnline)
      await note("invalidate(\(key)): observed, so it refreshes silently at once")
      inspector.invalidate(key)
      await post.load()
      token.end()
      inspector.refresh()
      await note(
        "why is it what it is, and who fetched it last:\n"
          + indented(inspector.renderEntry(key)))
    }
  }

  /// Waits, a turn at a time, until `condition` holds; stops the demo after five seconds.
  private func until(_ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
      guard ContinuousClock.now < deadline else {
        FileHandle.standardError.write(Data("the inspector's scene waited too long\n".utf8))
        exit(1)
      }
      await Task.yield()
    }
  }

  private func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "       " + $0 }.joined(separator: "\n")
  }
}
