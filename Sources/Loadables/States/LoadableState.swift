/// The state of a resource that is loaded asynchronously.
///
/// A `LoadableState` is what a screen shows while it loads one piece of content: nothing yet,
/// a spinner, an error, or the value. Hold it in a ``Loadable`` property wrapper, or in a
/// property of a class that adopts ``LoadableSupport``, and let the library drive it.
///
/// <!-- compile: context ModelView -->
/// ```swift
/// switch numbers {
/// case .absent: EmptyView()
/// case .loading: ProgressView()
/// case .error(let error): Text("\(error)")
/// case .loaded(let numbers): NumbersList(numbers)
/// }
/// ```
///
/// Two `.error` states are equal only when their errors have the same type and, when that
/// type is `Equatable`, compare equal; see <doc:ComingFromProcessed>.
public enum LoadableState<Value> {
  /// Nothing has been requested yet, or the state was reset.
  case absent

  /// A load is in progress and there is no value to show.
  case loading

  /// The last load failed with this error.
  case error(any Error)

  /// The last load produced this value.
  case loaded(Value)
}

// MARK: - Setters

extension LoadableState {
  /// Sets the state to ``absent``.
  public mutating func setAbsent() { self = .absent }

  /// Sets the state to ``loading``.
  public mutating func setLoading() { self = .loading }

  /// Sets the state to ``error(_:)`` with the given error.
  ///
  /// - Parameter error: The error the load failed with.
  public mutating func setError(_ error: any Error) { self = .error(error) }

  /// Sets the state to ``loaded(_:)`` with the given value.
  ///
  /// - Parameter value: The loaded value.
  public mutating func setValue(_ value: Value) { self = .loaded(value) }
}

// MARK: - Queries

extension LoadableState {
  /// Whether the state is ``absent``.
  public var isAbsent: Bool {
    if case .absent = self { return true }
    return false
  }

  /// Whether the state is ``loading``.
  ///
  /// A silent reload does not set this; ask the wrapper's or protocol's `isRunning` to learn
  /// whether any load is in flight.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// Whether the state is ``error(_:)``.
  public var isError: Bool {
    if case .error = self { return true }
    return false
  }

  /// Whether the state is ``loaded(_:)``.
  public var isLoaded: Bool {
    if case .loaded = self { return true }
    return false
  }

  /// The error when the state is ``error(_:)``, otherwise `nil`.
  public var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// The value when the state is ``loaded(_:)``, otherwise `nil`.
  public var data: Value? {
    if case .loaded(let value) = self { return value }
    return nil
  }
}

// MARK: - Transforming

extension LoadableState {
  /// Returns the state with its loaded value transformed; other states pass through unchanged.
  ///
  /// ```swift
  /// let count: LoadableState<Int> = numbers.map(\.count)
  /// ```
  ///
  /// - Parameter transform: A closure applied to the loaded value.
  /// - Returns: `.loaded(transform(value))` for a loaded state, otherwise the same case.
  /// - Throws: Whatever `transform` throws.
  public func map<T>(_ transform: (Value) throws -> T) rethrows -> LoadableState<T> {
    switch self {
    case .absent: .absent
    case .loading: .loading
    case .error(let error): .error(error)
    case .loaded(let value): .loaded(try transform(value))
    }
  }

  /// Returns the state with its loaded value transformed, where a `nil` result becomes
  /// ``absent``.
  ///
  /// ```swift
  /// let first: LoadableState<Int> = numbers.compactMap(\.first)  // .absent for an empty list
  /// ```
  ///
  /// - Parameter transform: A closure applied to the loaded value.
  /// - Returns: `.loaded(result)`, or `.absent` when `transform` returns `nil`; other states
  ///   pass through unchanged.
  /// - Throws: Whatever `transform` throws.
  public func compactMap<T>(_ transform: (Value) throws -> T?) rethrows -> LoadableState<T> {
    switch self {
    case .absent: .absent
    case .loading: .loading
    case .error(let error): .error(error)
    case .loaded(let value): try transform(value).map { .loaded($0) } ?? .absent
    }
  }
}

// MARK: - Conformances

extension LoadableState: Sendable where Value: Sendable {}

extension LoadableState: Equatable where Value: Equatable {
  /// Whether two states are equal.
  ///
  /// Errors are equal only when they have the same type and, if that type is `Equatable`,
  /// compare equal.
  // Inlinable, so that it is specialised in your module: since Swift 6.2 an `@Observable`
  // setter compares the old and new values of an `Equatable` type on every write, and this
  // function called as unspecialised generic code from another module would cost more than
  // the write. Only the comparison of two errors, which needs dynamic casts anyway, stays in
  // the library.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.absent, .absent), (.loading, .loading): true
    case (.error(let l), .error(let r)): errorsAreEqual(l, r)
    case (.loaded(let l), .loaded(let r)): l == r
    default: false
    }
  }
}

extension LoadableState: Hashable where Value: Hashable {
  /// Hashes the case, the loaded value, and an error's type (and value, when it is hashable).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .absent: hasher.combine(0)
    case .loading: hasher.combine(1)
    case .error(let error):
      hasher.combine(2)
      hashError(error, into: &hasher)
    case .loaded(let value):
      hasher.combine(3)
      hasher.combine(value)
    }
  }
}

extension LoadableState: CustomDebugStringConvertible {
  /// A description for logs and test failures: the case and the debug description of its
  /// payload, such as `loaded([1, 2, 3])` or `error(MyApp.NotFound())`.
  public var debugDescription: String {
    switch self {
    case .absent: "absent"
    case .loading: "loading"
    case .error(let error): "error(\(String(reflecting: error)))"
    case .loaded(let value): "loaded(\(String(reflecting: value)))"
    }
  }
}

extension LoadableState {
  /// The loaded value, or the error thrown; `CancellationError` when the state shows no
  /// outcome (`.absent`, `.loading`). How a finished load's state becomes `value()`'s result.
  @usableFromInline
  func outcome() throws -> Value {
    switch self {
    case .loaded(let value): return value
    case .error(let error): throw error
    case .absent, .loading: throw CancellationError()
    }
  }
}
