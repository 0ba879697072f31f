/// A ``Loader`` built from a closure, for content that needs no class of its own.
///
/// <!-- compile: context Model -->
/// ```swift
/// let weather = BlockLoader(policy: .timeout(.seconds(5))) { try await api.weather(city) }
/// await weather.load()
/// ```
public final class BlockLoader<Value: Sendable>: BaseLoader<Value> {
  private let work: @MainActor () async throws -> Value

  /// Creates a loader whose `fetch()` runs `fetch`.
  ///
  /// - Parameters:
  ///   - state: The initial state; `.absent` by default.
  ///   - policy: The policy every load runs under; none by default.
  ///   - fetch: Produces one value.
  ///
  /// Nonisolated, so that `@State private var loader = BlockLoader { ... }`
  /// compiles in a SwiftUI view in Swift 6: a stored property's initial value is evaluated
  /// outside the main actor, and a main-actor initialiser there fails with "default argument
  /// cannot be both main actor-isolated and nonisolated". `fetch` still runs on the main
  /// actor.
  public nonisolated init(
    state: LoadableState<Value> = .absent,
    policy: LoadPolicy<Value> = LoadPolicy(),
    fetch: @escaping @MainActor () async throws -> Value
  ) {
    self.work = fetch
    super.init(outsideMainActor: state, policy: policy)
  }

  /// Runs the closure the loader was made with.
  ///
  /// - Returns: The value.
  public override func fetch() async throws -> Value {
    try await work()
  }
}
