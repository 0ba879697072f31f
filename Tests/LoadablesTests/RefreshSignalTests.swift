import Foundation
import Loadables
import XCTest

/// The platform-independent parts of the Apple refresh signals: the notification trigger
/// (which `appBecameActive` is, with UIKit's notification) and trimming on a signal (which
/// `trimOnMemoryWarnings()` does with UIKit's memory warning). The Apple glue itself is
/// type-checked by `.ci/swiftui-check`. `networkReconnected` follows the store's
/// connectivity on every platform: see `NetworkTruthTests`.
@MainActor
final class RefreshSignalTests: XCTestCase {
  // MARK: - Notifications

  func testANotificationRefreshesWhileObservedAndNotAfter() async {
    let name = Notification.Name("RefreshSignalTests.\(#function)")
    let store = LoaderStore()
    let server = CountingServer()
    let feed = store.loader(for: ["feed"], refreshing: [.notifications(named: name)]) {
      try await server.answer(nil, "feed")
    }
    await feed.load()
    let token = feed.observe()
    // The observer is added once the trigger's task runs: post until it is there.
    for _ in 0..<1_000 where server.calls == 1 {
      NotificationCenter.default.post(name: name, object: nil)
      await Task.yield()
    }
    await yieldUntil { server.calls >= 2 && !feed.isRunning }
    XCTAssertGreaterThanOrEqual(server.calls, 2, "the notification did not refresh")
    token.end()
    await yieldUntil { false }  // let the trigger's task end and remove its observer
    let calls = server.calls
    NotificationCenter.default.post(name: name, object: nil)
    await yieldUntil { server.calls > calls }
    XCTAssertEqual(server.calls, calls, "a notification refreshed with no observer")
  }

  func testANotificationPostedOffTheMainThreadRefreshesOnTheMainActor() async {
    let name = Notification.Name("RefreshSignalTests.\(#function)")
    let store = LoaderStore()
    let server = CountingServer()
    let feed = store.loader(for: ["feed"], refreshing: [.notifications(named: name)]) {
      MainActor.assertIsolated("the refresh left the main actor")
      return try await server.answer(nil, "feed")
    }
    await feed.load()
    let token = feed.observe()
    for _ in 0..<1_000 where server.calls == 1 {
      await Task.detached { NotificationCenter.default.post(name: name, object: nil) }.value
      await Task.yield()
    }
    await yieldUntil { server.calls >= 2 }
    XCTAssertGreaterThanOrEqual(
      server.calls, 2, "a notification from another thread did not refresh")
    token.end()
  }

  // MARK: - Trimming on a signal

  func testASignalTrimsTheUnobservedEntriesAndKeepsTheObservedOnes() async {
    let store = LoaderStore()
    let kept = store.loader(for: ["kept"]) { 1 }
    let token = kept.observe()
    _ = store.loader(for: ["dropped"]) { 2 }
    let (warnings, warn) = AsyncStream.makeStream(of: Void.self)
    let listening = Task { await store.trim(whenever: warnings) }
    XCTAssertEqual(store.count, 2)
    warn.yield()
    await yieldUntil { store.count == 1 }
    XCTAssertEqual(store.keys, [["kept"]], "the warning did not trim, or trimmed an observed entry")
    _ = store.loader(for: ["again"]) { 3 }
    warn.yield()
    await yieldUntil { store.count == 1 }
    XCTAssertEqual(store.keys, [["kept"]], "a second warning did not trim")
    listening.cancel()
    warn.finish()
    await listening.value
    token.end()
  }

  func testTrimmingStopsWhenTheSignalsEnd() async {
    let store = LoaderStore()
    let (warnings, warn) = AsyncStream.makeStream(of: Void.self)
    let listening = Task { await store.trim(whenever: warnings) }
    warn.finish()
    await listening.value
    _ = store.loader(for: ["after"]) { 1 }
    XCTAssertEqual(store.count, 1, "the entry made after the signals ended is gone")
  }
}
