import Loadables
import Observation

/// The view model of the demo screen: every piece of state it shows, and the actions that
/// load it.
///
/// It uses the library in each of its forms:
/// - `@Loadable` and `@LoadableProcess` property wrappers (marked `@ObservationIgnored`:
///   the wrappers notify observers themselves), driven through their projected values
///   (`$numbers.load { ... }`, `$saving.run { ... }`);
/// - plain stored properties driven by key path, thanks to `LoadableSupport` and
///   `ProcessSupport` (`load(\.profile) { ... }`, `run(\.publishing) { ... }`).
///
/// Every action returns the task running it, so the demo script can wait for it to end; an
/// app would simply ignore it.
@MainActor @Observable
final class DemoModel: LoadableSupport, ProcessSupport {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var feed: LoadableState<[String]>
  @ObservationIgnored @LoadableProcess var saving: SingleProcessState

  var profile: LoadableState<Profile> = .absent
  var publishing: SingleProcessState = .idle

  @ObservationIgnored private let api: FakeAPI

  init(api: FakeAPI) {
    self.api = api
  }

  // MARK: - Loading values

  /// `.loading`, then `.loaded([1, 2, 3])`.
  @discardableResult
  func loadNumbers() -> Task<Void, Never> {
    $numbers.load { [api] in try await api.numbers() }
  }

  /// Starts a load that only answers after it was cancelled: that answer must be dropped.
  @discardableResult
  func loadNumbersIgnoringCancellation() -> Task<Void, Never> {
    $numbers.load { [api] in await api.numbersIgnoringCancellation() }
  }

  /// Cancels the load of `numbers`: its state stays as it is and its result is dropped.
  func cancelNumbers() {
    $numbers.cancel()
  }

  /// Clears `numbers` back to `.absent`.
  func resetNumbers() {
    $numbers.reset()
  }

  /// Fills the feed headline by headline as the server streams them: each `yield` is a new
  /// state on screen.
  @discardableResult
  func streamFeed() -> Task<Void, Never> {
    $feed.load { [api] yield in
      var headlines: [String] = []
      for try await headline in api.feedStream() {
        headlines.append(headline)
        yield(.loaded(headlines))
      }
    }
  }

  /// Reloads the feed without replacing it by `.loading`: the old list stays on screen and
  /// only `$feed.isRunning` tells that a refresh is in flight.
  @discardableResult
  func refreshFeed() -> Task<Void, Never> {
    $feed.load(silently: true) { [api] in try await api.feedSnapshot() }
  }

  /// Loads the profile through its key path (`LoadableSupport`).
  @discardableResult
  func loadProfile(failing: Bool) -> Task<Void, Never> {
    load(\.profile) { [api] in try await api.profile(failing: failing) }
  }

  // MARK: - Running jobs

  /// `.running`, then `.finished` (or `.failed`), through the `@LoadableProcess` wrapper.
  @discardableResult
  func save() -> Task<Void, Never> {
    $saving.run { [api] in try await api.save() }
  }

  /// The same through a key path (`ProcessSupport`).
  @discardableResult
  func publish() -> Task<Void, Never> {
    run(\.publishing) { [api] in try await api.publish() }
  }
}
