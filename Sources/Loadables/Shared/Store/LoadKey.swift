/// The key of a shared entry in a ``LoaderStore``: a path of hashable parts, such as
/// `["posts", 42]`, so that a prefix (`["posts"]`) names a whole family of entries.
///
/// <!-- compile: context PostValue -->
/// ```swift
/// let key: LoadKey = ["posts", post.id]
/// store.invalidate(["posts"])  // every key that starts with "posts"
/// ```
///
/// Parts compare and hash as `AnyHashable` compares and hashes them: `42` and `42 as Int64`
/// are the same part, as they are the same key of a `[AnyHashable: Value]` dictionary.
///
/// > Important: A key has at least one part. An empty key stops the program with a message
/// > naming it.
public struct LoadKey: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// One part of a key: any hashable, `Sendable` value, compared and hashed as
  /// `AnyHashable` compares and hashes it (so `42` and `42 as Int64` are the same part, as
  /// they are the same key of a `[AnyHashable: Value]` dictionary).
  public struct Part: Hashable, Sendable, CustomStringConvertible {
    /// The value of this part.
    public let value: any Hashable & Sendable

    /// Wraps a value as a key part.
    ///
    /// - Parameter value: The value.
    public init(_ value: any Hashable & Sendable) {
      self.value = value
    }

    public static func == (lhs: Part, rhs: Part) -> Bool {
      LoadKey.equal(lhs.value, rhs.value)
    }

    public func hash(into hasher: inout Hasher) { LoadKey.hash(value, into: &hasher) }

    /// The value, quoted when it is a string.
    public var description: String {
      if let text = value as? String { return "\"\(text)\"" }
      return "\(value)"
    }
  }

  /// The parts, held as the common keys allow: a key is built, hashed and compared at every
  /// look-up of a shared entry, and a store keeps one per entry, so the usual shapes (one
  /// string, a string and an integer: `["posts"]`, `["posts", id]`) keep their parts inline,
  /// with no array of boxed parts; any other key keeps the caller's array as its literal made
  /// it. Whatever the storage, a key compares and hashes part by part as ``Part`` does.
  private let storage: Storage

  private enum Storage: Sendable {
    /// `[name]`.
    case name(String)
    /// `[name, id]`.
    case nameAndID(String, Int)
    /// Any other parts, outermost first.
    case values([any Hashable & Sendable])
  }

  /// How many parts the key has.
  private var count: Int {
    switch storage {
    case .name: 1
    case .nameAndID: 2
    case .values(let values): values.count
    }
  }

  /// The part at `index` (below ``count``), as a value of its own type.
  private func part(at index: Int) -> any Hashable & Sendable {
    switch storage {
    case .name(let name): name
    case .nameAndID(let name, let id): index == 0 ? name : id
    case .values(let values): values[index]
    }
  }

  /// The parts' values, outermost first.
  private var values: [any Hashable & Sendable] {
    switch storage {
    case .name(let name): [name]
    case .nameAndID(let name, let id): [name, id]
    case .values(let values): values
    }
  }

  /// The parts of the key, outermost first.
  public var parts: [Part] { values.map(Part.init) }

  /// Creates a key from its parts.
  ///
  /// - Parameter parts: At least one hashable, `Sendable` value, outermost first.
  public init(_ parts: [any Hashable & Sendable]) {
    precondition(!parts.isEmpty, "LoadKey: a key needs at least one part, got []")
    if let name = LoadKey.exactly(parts[0], String.self) {
      if parts.count == 1 {
        storage = .name(name)
        return
      }
      if parts.count == 2, let id = LoadKey.exactly(parts[1], Int.self) {
        storage = .nameAndID(name, id)
        return
      }
    }
    storage = .values(parts)
  }

  /// Creates a key from an array literal: `["posts", 42]`.
  ///
  /// - Parameter elements: At least one hashable, `Sendable` value, outermost first.
  public init(arrayLiteral elements: any Hashable & Sendable...) {
    self.init(elements)
  }

  public static func == (lhs: LoadKey, rhs: LoadKey) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.nameAndID(let lhsName, let lhsID), .nameAndID(let rhsName, let rhsID)):
      return lhsID == rhsID && lhsName == rhsName
    case (.name(let lhsName), .name(let rhsName)):
      return lhsName == rhsName
    default:
      return lhs.count == rhs.count && lhs.startsWith(rhs)
    }
  }

  public func hash(into hasher: inout Hasher) {
    // What hashing the parts one by one feeds the hasher (see `hash(_:into:)`).
    switch storage {
    case .name(let name):
      hasher.combine(1)
      hasher.combine(name)
    case .nameAndID(let name, let id):
      hasher.combine(2)
      hasher.combine(name)
      hasher.combine(id)
    case .values(let values):
      hasher.combine(values.count)
      values.withUnsafeBufferPointer { values in
        for index in values.indices { LoadKey.hash(values[index], into: &hasher) }
      }
    }
  }

  /// Whether this key starts with every part of `prefix`, in order. A key is its own
  /// prefix.
  ///
  /// - Parameter prefix: The family to test for.
  /// - Returns: `true` when `prefix` names this key or a family it belongs to.
  public func hasPrefix(_ prefix: LoadKey) -> Bool {
    prefix.count <= count && startsWith(prefix)
  }

  /// Whether the first parts of this key equal every part of `prefix` (which has no more
  /// parts than this key).
  private func startsWith(_ prefix: LoadKey) -> Bool {
    if case .values(let values) = storage, case .values(let prefixValues) = prefix.storage {
      return values.withUnsafeBufferPointer { values in
        prefixValues.withUnsafeBufferPointer { prefix in
          for index in prefix.indices where !LoadKey.equal(values[index], prefix[index]) {
            return false
          }
          return true
        }
      }
    }
    for index in 0..<prefix.count where !LoadKey.equal(part(at: index), prefix.part(at: index)) {
      return false
    }
    return true
  }

  /// The key with `part` appended: `["posts"].appending(42)` is `["posts", 42]`.
  ///
  /// - Parameter part: The part to add at the end.
  /// - Returns: The longer key.
  public func appending(_ part: any Hashable & Sendable) -> LoadKey {
    LoadKey(values + [part])
  }

  /// The parts, as in `["posts", 42]`.
  public var description: String {
    "[" + parts.map(\.description).joined(separator: ", ") + "]"
  }

  // MARK: - Parts, compared and hashed as AnyHashable does

  // `Int` and `String` parts (most parts are) take a direct path: `AnyHashable` would look
  // up a conformance and a box type at every call, which cost more than the rest of a
  // fresh read of a shared entry. The direct path feeds the hasher exactly what
  // `AnyHashable` feeds it (an integer's 64-bit value, the string itself), so a part hashes
  // the same whichever path it takes, and `42` still equals `42 as Int64`.

  /// Feeds `value` to `hasher` as `AnyHashable(value)` would.
  @inline(__always)
  static func hash(_ value: any Hashable & Sendable, into hasher: inout Hasher) {
    hashOpened(value, into: &hasher)
  }

  @inline(__always)
  private static func hashOpened<T: Hashable & Sendable>(_ value: T, into hasher: inout Hasher) {
    if T.self == Int.self {
      hasher.combine(unsafeBitCast(value, to: Int.self))
    } else if T.self == String.self {
      hasher.combine(unsafeBitCast(value, to: String.self))
    } else {
      hasher.combine(AnyHashable(value))
    }
  }

  /// `value` when it is of type `Part` (a `String`, an `Int`), found without a dynamic cast.
  @inline(__always)
  private static func exactly<Part>(_ value: any Hashable & Sendable, _: Part.Type) -> Part? {
    exactlyOpened(value, Part.self)
  }

  @inline(__always)
  private static func exactlyOpened<T: Hashable & Sendable, Part>(_ value: T, _: Part.Type)
    -> Part?
  {
    T.self == Part.self ? unsafeBitCast(value, to: Part.self) : nil
  }

  /// Whether `AnyHashable(lhs) == AnyHashable(rhs)`.
  @inline(__always)
  static func equal(_ lhs: any Hashable & Sendable, _ rhs: any Hashable & Sendable) -> Bool {
    equalOpened(lhs, rhs)
  }

  @inline(__always)
  private static func equalOpened<L: Hashable & Sendable, R: Hashable & Sendable>(
    _ lhs: L, _ rhs: R
  ) -> Bool {
    if L.self == R.self {
      if L.self == Int.self {
        return unsafeBitCast(lhs, to: Int.self) == unsafeBitCast(rhs, to: Int.self)
      }
      if L.self == String.self {
        return unsafeBitCast(lhs, to: String.self) == unsafeBitCast(rhs, to: String.self)
      }
    }
    return AnyHashable(lhs) == AnyHashable(rhs)
  }
}
