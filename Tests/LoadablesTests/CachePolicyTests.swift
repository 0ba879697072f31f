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
    guard $profile.isRunning else { return XCTFail("an invalidated value was not refreshed") }
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

  func testValuesAreKeptPerKey() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    @Loadable var profile: LoadableState<String>
    var fetched: [Int] = []
    for id in [1, 2, 1, 2] {
      await $profile.load(policy: .cache(cache, key: id)) {
        fetched.append(id)
        return "user \(id)"
      }
      XCTAssertEqual(profile, .loaded("user \(id)"))
    }
    XCTAssertEqual(fetched, [1, 2], "a key's value was fetched twice or served for another key")
    XCTAssertEqual(cache.count, 2)
  }

  func testAValueIsFreshUntilItsTimeToLiveThenStale() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    cache.insert("v1", for: 1)
    clock.advance(by: .seconds(59))
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .fresh)
    @Loadable var profile: LoadableState<String>
    var fetches = 0
    await $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "v2"
    }
    XCTAssertEqual(fetches, 0, "a fresh value was fetched again")
    XCTAssertEqual(profile, .loaded("v1"))
    clock.advance(by: .seconds(1))
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .stale)
    await $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "v2"
    }
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(profile, .loaded("v2"))
  }

  func testAStaleValueIsShownUntilTheStaleWindowEnds() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(10), staleWhileRevalidate: .seconds(10), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(19))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) { "new" }
    XCTAssertEqual(recorder.states, [.absent, .loaded("old"), .loaded("new")])
    recorder.stop()
  }

  func testAFailedRefreshWritesTheErrorAndKeepsTheStaleValue() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(1), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(5))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) { throw TestError(code: 3) }
    XCTAssertEqual(recorder.states, [.absent, .loaded("old"), .error(TestError(code: 3))])
    XCTAssertEqual(cache.value(for: 1), "old")
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .stale)
    recorder.stop()
  }

  func testErrorsAreNotCached() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    @Loadable var profile: LoadableState<String>
    var calls = 0
    await $profile.load(policy: .cache(cache, key: 1)) {
      calls += 1
      throw TestError(code: calls)
    }
    XCTAssertEqual(profile, .error(TestError(code: 1)))
    XCTAssertEqual(cache.count, 0, "an error was stored")
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) {
      calls += 1
      return "ok"
    }
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(recorder.states, [.error(TestError(code: 1)), .loading, .loaded("ok")])
    recorder.stop()
  }

  func testInvalidateAllMarksEveryValueStale() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    cache.insert("a", for: 1)
    cache.insert("b", for: 2)
    cache.invalidateAll()
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .stale)
    XCTAssertEqual(cache.entry(for: 2)?.freshness, .stale)
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 2)) { "b2" }
    XCTAssertEqual(recorder.states, [.absent, .loaded("b"), .loaded("b2")])
    XCTAssertEqual(cache.entry(for: 2)?.freshness, .fresh, "a refreshed value is fresh again")
    recorder.stop()
  }

  func testRemovedValuesAreLoadedAfresh() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    cache.insert("a", for: 1)
    cache.insert("b", for: 2)
    cache.insert("c", for: 3)
    cache.remove(1)
    XCTAssertNil(cache.value(for: 1))
    XCTAssertEqual(cache.value(for: 2), "b")
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) { "a2" }
    cache.removeAll()
    XCTAssertEqual(cache.count, 0)
    await $profile.load(policy: .cache(cache, key: 3)) { "c2" }
    XCTAssertEqual(
      recorder.states, [.absent, .loading, .loaded("a2"), .loading, .loaded("c2")])
    recorder.stop()
  }

  /// A fetch that started before any of the four ways to drop or stale a value does not store
  /// what it fetched.
  func testNoKindOfInvalidationIsUndoneByAnOlderFetch() async {
    let drops: [(String, (LoadCache<Int, String>) -> Void)] = [
      ("invalidate", { $0.invalidate(1) }),
      ("invalidateAll", { $0.invalidateAll() }),
      ("remove", { $0.remove(1) }),
      ("removeAll", { $0.removeAll() }),
    ]
    for (name, drop) in drops {
      let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
      @Loadable var profile: LoadableState<String>
      let gate = Gate<String>()
      let task: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
        try await gate.pass()
      }
      await gate.arrival()
      drop(cache)
      gate.open("fetched before \(name)")
      await task.value
      XCTAssertEqual(profile, .loaded("fetched before \(name)"), name)
      XCTAssertNil(cache.value(for: 1), "a fetch older than \(name) stored its value")
    }
  }

  func testAFetchAfterAnInvalidationStoresAgain() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    cache.invalidateAll()
    @Loadable var profile: LoadableState<String>
    await $profile.load(policy: .cache(cache, key: 1)) { "fresh" }
    XCTAssertEqual(cache.entry(for: 1)?.value, "fresh")
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .fresh)
  }

  func testStoringAValueCountsAsAUseForEviction() async {
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(60), maxEntries: 2, clock: ManualClock())
    cache.insert("a", for: 1)
    cache.insert("b", for: 2)
    cache.insert("a2", for: 1)  // 1 stored again: 2 is now the least recently used
    cache.insert("c", for: 3)
    XCTAssertEqual(cache.count, 2)
    XCTAssertNil(cache.value(for: 2))
    XCTAssertEqual(cache.value(for: 1), "a2")
    XCTAssertEqual(cache.value(for: 3), "c")
  }

  func testLoadsEvictTheLeastRecentlyUsedValue() async {
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(60), maxEntries: 2, clock: ManualClock())
    @Loadable var profile: LoadableState<String>
    var fetched: [Int] = []
    for id in [1, 2, 1, 3, 1, 2] {
      await $profile.load(policy: .cache(cache, key: id)) {
        fetched.append(id)
        return "user \(id)"
      }
    }
    // 1 is used before 3 arrives, so 2 goes; 2 then comes back and pushes out 3.
    XCTAssertEqual(fetched, [1, 2, 3, 2])
    XCTAssertEqual(cache.count, 2)
  }

  func testTheCacheWorksThroughTheKeyPathForm() async {
    @MainActor final class Profiles: LoadableSupport {
      var profile: LoadableState<String> = .absent
      let cache: LoadCache<Int, String>
      var fetches = 0
      var version = "v1"
      init(cache: LoadCache<Int, String>) { self.cache = cache }
      func show(_ id: Int) async {
        await load(\.profile, policy: .cache(cache, key: id)) {
          self.fetches += 1
          return "user \(id) \(self.version)"
        }
      }
    }
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    let first = Profiles(cache: cache)
    let second = Profiles(cache: cache)
    await first.show(1)
    await second.show(1)
    XCTAssertEqual(first.fetches + second.fetches, 1, "a cached value was fetched again")
    XCTAssertEqual(second.profile, .loaded("user 1 v1"))
    clock.advance(by: .seconds(60))
    let recorder = StateRecorder(second, \.profile)
    second.profile = .absent
    second.version = "v2"
    await second.show(1)
    XCTAssertEqual(second.fetches, 1)
    // The stale value shows at once (no .loading), then the refreshed one.
    XCTAssertEqual(
      recorder.states, [.loaded("user 1 v1"), .loaded("user 1 v1"), .loaded("user 1 v2")])
    recorder.stop()
  }

  func testAFreshValueCompletesAnAwaitedLoadAndStopsTheOneRunning() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    cache.insert("cached", for: 1)
    @Loadable var profile: LoadableState<String>
    let gate = Gate<String>()
    let running: Task<Void, Never> = $profile.load { try await gate.pass() }
    await gate.arrival()
    await $profile.load(policy: .cache(cache, key: 1)) { "fetched" }
    await running.value
    XCTAssertEqual(profile, .loaded("cached"))
    XCTAssertFalse($profile.isRunning)
  }
}
