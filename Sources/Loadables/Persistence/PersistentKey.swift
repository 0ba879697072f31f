import Foundation

/// The identity of a ``LoadKey`` on disk: a stable string that is the same for equal keys in
/// every launch of the app, and different for different keys.
///
/// A key can be persisted when each of its parts is a string, an integer, a floating-point
/// number, a `Bool`, or another `Encodable` value of a named (not private or local) type.
/// Anything else is rejected with ``PersistenceError/unencodableKey(key:reason:)``, never a
/// trap: the store then keeps that entry in memory only.
///
/// Each part is written as a tag, the length of its payload in UTF-8 bytes, a colon and the
/// payload, so no choice of parts (with `/`, `..`, NUL, emoji or separators in them) can make
/// two keys read alike:
///
/// ```swift
/// try PersistentKey(["posts", 42]).identity  // "s5:postsi2:42"
/// try PersistentKey(["posts", "42"]).identity  // "s5:postss2:42" — 42 and "42" differ
/// ```
///
/// The identity follows ``LoadKey``'s own equality (`AnyHashable`'s): `42`, `42 as UInt8` and
/// `42.0` are one part, so they share an identity; strings are compared by canonical
/// equivalence, so `"é"` precomposed and `"e\u{301}"` share one too.
///
/// > Important: An `Encodable` part whose encoding is not deterministic (a `Set`, a
/// > `Dictionary` with non-string keys) gets a different identity from launch to launch: its
/// > entry is then simply not found again, and the byte budget evicts it in time.
public struct PersistentKey: Hashable, Sendable, CustomStringConvertible {
  /// The stable string, as stored in each record file.
  public let identity: String

  /// The identity of `key`.
  ///
  /// <!-- compile: context Persistence -->
  /// ```swift
  /// let persistent = try PersistentKey(["user", userID, "avatar"])
  /// ```
  ///
  /// - Parameter key: The key of a shared entry.
  /// - Throws: ``PersistenceError/unencodableKey(key:reason:)`` naming the first part that
  ///   cannot be encoded and why.
  public init(_ key: LoadKey) throws(PersistenceError) {
    var identity = ""
    for (index, part) in key.parts.enumerated() {
      let (tag, payload): (Character, String)
      do {
        (tag, payload) = try Self.encode(part.value)
      } catch {
        throw .unencodableKey(
          key: key.description, reason: "part \(index) (\(part.description)): \(error.reason)")
      }
      identity.append(tag)
      identity += "\(payload.utf8.count):"
      identity += payload
    }
    self.identity = identity
  }

  /// A key read back from a record file.
  ///
  /// - Parameter identity: The stored identity.
  init(identity: String) { self.identity = identity }

  /// The identity.
  public var description: String { identity }

  private struct PartError: Error { let reason: String }

  private static func encode(_ value: any Hashable & Sendable) throws(PartError) -> (
    Character, String
  ) {
    if let text = value as? String {
      // ASCII text is already in its canonical composition (the usual key, and Foundation's
      // mapping is a costly call made for every entry restored at launch).
      if text.utf8.allSatisfy({ $0 < 0x80 }) { return ("s", text) }
      return ("s", text.precomposedStringWithCanonicalMapping)
    }
    if let flag = value as? Bool { return ("b", flag ? "true" : "false") }
    // `Int` by its concrete type first: the cast to `any BinaryInteger` looks up a
    // conformance at run time.
    if let integer = value as? Int { return ("i", String(integer)) }
    if let integer = value as? any BinaryInteger { return ("i", "\(integer)") }
    if let number = value as? any BinaryFloatingPoint { return numeric(Double(number)) }
    guard let encodable = value as? any Encodable else {
      throw PartError(reason: "\(type(of: value)) is not Encodable")
    }
    let typeName = String(reflecting: type(of: value))
    guard !typeName.contains("(unknown context") else {
      throw PartError(
        reason: "\(typeName) is private or local, so its name is not stable across launches")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      let json = try encoder.encode(encodable)
      return ("c", typeName + "=" + String(decoding: json, as: UTF8.self))
    } catch {
      throw PartError(reason: "encoding \(typeName) failed: \(error)")
    }
  }

  /// A number as `AnyHashable` compares it: an integral value is the integer it equals.
  private static func numeric(_ value: Double) -> (Character, String) {
    if let integer = Int64(exactly: value) { return ("i", "\(integer)") }
    if let integer = UInt64(exactly: value) { return ("i", "\(integer)") }
    return ("f", "\(value)")
  }
}
