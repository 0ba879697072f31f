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

    /// Wraps a value as a key part.
    ///
    /// - Parameter value: The value.
    public init(_ value: any Hashable & Sendable) { self.value = value }

    public static func == (lhs: Part, rhs: Part) -> Bool {
      AnyHashable(lhs.value) == AnyHashable(rhs.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(value)) }

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
