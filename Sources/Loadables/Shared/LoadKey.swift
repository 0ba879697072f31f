/// The key of a shared entry in a ``LoaderStore``: a path of hashable parts, such as
/// `["posts", 42]`, so that a prefix (`["posts"]`) names a whole family of entries.
///
/// ```swift
/// let key: LoadKey = ["posts", post.id]
/// store.invalidate(["posts"])  // every key that starts with "posts"
/// ```
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

    /// The value's hash as `AnyHashable` computes it, worked out once: a key is hashed and
    /// compared at every look-up, and boxing each part in `AnyHashable` then costs more than
    /// the rest of a fresh read.
    private let hashCode: Int

    /// The value itself when it is an `Int` or a `String` (most parts are), so that two
    /// such parts compare without `AnyHashable`'s dynamic casts.
    private let plain: Plain

    private enum Plain: Sendable {
      case int(Int)
      case string(String)
      case other
    }

    /// Wraps a value as a key part.
    ///
    /// - Parameter value: The value.
    public init(_ value: any Hashable & Sendable) {
      self.value = value
      hashCode = AnyHashable(value).hashValue
      plain = Self.plain(value)
    }

    private static func plain<T: Hashable & Sendable>(_ value: T) -> Plain {
      if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
      if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
      return .other
    }

    public static func == (lhs: Part, rhs: Part) -> Bool {
      guard lhs.hashCode == rhs.hashCode else { return false }
      switch (lhs.plain, rhs.plain) {
      case (.int(let left), .int(let right)): return left == right
      case (.string(let left), .string(let right)): return left == right
      default: return AnyHashable(lhs.value) == AnyHashable(rhs.value)
      }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

    /// The value, quoted when it is a string.
    public var description: String {
      if let text = value as? String { return "\"\(text)\"" }
      return "\(value)"
    }
  }

  /// The parts of the key, outermost first.
  public let parts: [Part]

  /// Creates a key from its parts.
  ///
  /// - Parameter parts: At least one hashable, `Sendable` value, outermost first.
  public init(_ parts: [any Hashable & Sendable]) {
    precondition(!parts.isEmpty, "LoadKey: a key needs at least one part, got []")
    self.parts = parts.map(Part.init)
  }

  /// Creates a key from an array literal: `["posts", 42]`.
  ///
  /// - Parameter elements: At least one hashable, `Sendable` value, outermost first.
  public init(arrayLiteral elements: any Hashable & Sendable...) {
    self.init(elements)
  }

  /// Whether this key starts with every part of `prefix`, in order. A key is its own
  /// prefix.
  ///
  /// - Parameter prefix: The family to test for.
  /// - Returns: `true` when `prefix` names this key or a family it belongs to.
  public func hasPrefix(_ prefix: LoadKey) -> Bool {
    prefix.parts.count <= parts.count && Array(parts.prefix(prefix.parts.count)) == prefix.parts
  }

  /// The key with `part` appended: `["posts"].appending(42)` is `["posts", 42]`.
  ///
  /// - Parameter part: The part to add at the end.
  /// - Returns: The longer key.
  public func appending(_ part: any Hashable & Sendable) -> LoadKey {
    LoadKey(parts: parts + [Part(part)])
  }

  private init(parts: [Part]) { self.parts = parts }

  /// The parts, as in `["posts", 42]`.
  public var description: String {
    "[" + parts.map(\.description).joined(separator: ", ") + "]"
  }
}
