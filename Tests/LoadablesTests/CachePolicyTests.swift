import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class CachePolicyTests: XCTestCase {
  func testAFreshValueIsShownAtOnceWithoutFetching() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    @Loadable var profile: LoadableState<String>
    var fetches = 0
    await $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "Ada"
    }
    let recorder = StateRecorder($profile)
    $profile.reset()
    let _: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "new"
    }
    XCTAssertEqual(profile, .loaded("Ada"), "the cached value must show synchronously")
    XCTAssertFalse($profile.isRunning)
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(recorder.states, [.loaded("Ada"), .absent, .loaded("Ada")])
    recorder.stop()
  }

  func testAStaleValueShowsAtOnceThenRefreshesSilently() async throws {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(61))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    let gate = Gate<String>()
    let task: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      try await gate.pass()
    }
    XCTAssertEqual(profile, .loaded("old"))
    XCTAssertTrue($profile.isRunning)
    gate.open("new")
    await task.value
    XCTAssertEqual(recorder.states, [.absent, .loaded("old"), .loaded("new")])
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .fresh)
    XCTAssertEqual(cache.value(for: 1), "new")
    recorder.stop()
  }

  func testAnExpiredValueIsDroppedAndTheLoadShowsLoading() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(10), staleWhileRevalidate: .seconds(10), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(20))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) { "new" }
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded("new")])
    recorder.stop()
  }

  func testInvalidationMakesTheNextLoadRefreshAndDropsAnOlderFetch() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    cache.insert("v1", for: 1)
    cache.invalidate(1)
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .stale)
    @Loadable var profile: LoadableState<String>
    let gate = Gate<String>()
    let task: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      try await gate.pass()
    }
    await gate.arrival()
    cache.invalidate(1)  // something changed while the fetch ran
    gate.open("v2 (fetched before the change)")
    await task.value
    XCTAssertEqual(profile, .loaded("v2 (fetched before the change)"))
    XCTAssertEqual(cache.value(for: 1), "v1", "an older fetch overwrote a newer invalidation")
  }

  func testTheLeastRecentlyUsedEntryIsEvicted() {
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(60), maxEntries: 2, clock: ManualClock())
    cache.insert("a", for: 1)
    cache.insert("b", for: 2)
    _ = cache.value(for: 1)  // 1 is now the most recently used
    cache.insert("c", for: 3)
    XCTAssertEqual(cache.count, 2)
    XCTAssertEqual(cache.value(for: 1), "a")
    XCTAssertNil(cache.value(for: 2))
    XCTAssertEqual(cache.value(for: 3), "c")
  }
}
