/// A ``Loader`` that wraps another and runs the other's `fetch()` under a policy: a
/// retrying, debounced, rate-limited, cached or deduplicated version of a loader you
/// already have.
///
/// <!-- compile: context LoadersUsing -->
/// ```swift
/// let feed = FeedLoader(api: api)
/// let patientFeed = PolicyLoader(wrapping: feed, policy: .retry(maxAttempts: 5))
/// // or: let patientFeed = feed.with(.retry(maxAttempts: 5))
/// ```
///
/// The wrapper has a state of its own, which its observers see; the wrapped loader's own
/// state is not touched, since the wrapper calls its `fetch()`, not its `load()`. The
/// policy applies outside any policy the wrapped loader has of its own, which its own
/// `load()` uses but its `fetch()` does not.
public final class PolicyLoader<Wrapped: Loader>: BaseLoader<Wrapped.Value> {
  /// The loader whose `fetch()` this one runs.
  public let wrapped: Wrapped

  /// Creates a loader that runs `wrapped.fetch()` under `policy`.
  ///
  /// - Parameters:
  ///   - wrapped: The loader to wrap.
  ///   - policy: The policy to run its `fetch()` under.
  public init(wrapping wrapped: Wrapped, policy: LoadPolicy<Wrapped.Value>) {
    self.wrapped = wrapped
    super.init(policy: policy)
  }

  /// Runs the wrapped loader's `fetch()`.
  ///
  /// - Returns: The value.
  public override func fetch() async throws -> Wrapped.Value {
    try await wrapped.fetch()
  }
}

extension Loader {
  /// A loader that runs this one's `fetch()` under `policy`; see ``PolicyLoader``.
  ///
  /// - Parameter policy: The policy.
  /// - Returns: The wrapping loader.
  public func with(_ policy: LoadPolicy<Value>) -> PolicyLoader<Self> {
    PolicyLoader(wrapping: self, policy: policy)
  }
}
