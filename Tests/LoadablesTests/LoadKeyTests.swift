import Loadables
import XCTest

/// `LoadKey` compares and hashes its parts as `AnyHashable` does, whichever path a part
/// takes (integers and strings are hashed directly, other values through `AnyHashable`).
final class LoadKeyTests: XCTestCase {
  func testPartsHashAsAnyHashableDoes() {
    let values: [any Hashable & Sendable] = [
      0, 1, -1, 42, Int.max, Int.min, 42 as Int64, -7 as Int32, 200 as UInt8, UInt64.max,
      "", "posts", "café", "cafe\u{301}", String(repeating: "long key ", count: 20),
      1.5, true, Character("x"),
    ]
    for value in values {
      XCTAssertEqual(
        LoadKey.Part(value).hashValue, AnyHashable(value).hashValue,
        "the part \(value) (\(type(of: value))) hashed differently from AnyHashable")
    }
  }

  func testPartsEqualExactlyWhenAnyHashableSaysSo() {
    let values: [any Hashable & Sendable] = [
      42, 42 as Int64, 42 as UInt8, -1, -1 as Int16, UInt64.max, 43, "42", "café",
      "cafe\u{301}", "posts", 1.5, 42.0, true,
    ]
    for lhs in values {
      for rhs in values {
        let expected = AnyHashable(lhs) == AnyHashable(rhs)
        XCTAssertEqual(
          LoadKey.Part(lhs) == LoadKey.Part(rhs), expected,
          "\(lhs) (\(type(of: lhs))) == \(rhs) (\(type(of: rhs)))")
        XCTAssertEqual(
          LoadKey(["posts", lhs]) == LoadKey(["posts", rhs]), expected,
          "key with \(lhs) (\(type(of: lhs))) == key with \(rhs) (\(type(of: rhs)))")
        if expected {
          XCTAssertEqual(
            LoadKey(["posts", lhs]).hashValue, LoadKey(["posts", rhs]).hashValue,
            "equal keys with \(lhs) and \(rhs) hashed differently")
        }
      }
    }
  }

  func testKeysOfDifferentLengthsDiffer() {
    XCTAssertNotEqual(LoadKey(["posts"]), LoadKey(["posts", 1]))
    XCTAssertNotEqual(LoadKey(["posts", 1]), LoadKey(["posts"]))
    XCTAssertFalse(LoadKey(["posts"]).hasPrefix(["posts", 1]))
    XCTAssertTrue(LoadKey(["posts", 1, "comments"]).hasPrefix(["posts", 1 as Int64]))
  }

  func testPartsKeepTheirValuesAndDescriptions() {
    let key: LoadKey = ["posts", 42, 1.5]
    XCTAssertEqual(key.parts.count, 3)
    XCTAssertEqual(key.parts[0].value as? String, "posts")
    XCTAssertEqual(key.parts[1].value as? Int, 42)
    XCTAssertEqual(key.parts.map(\.description), [#""posts""#, "42", "1.5"])
    XCTAssertEqual(key.appending("comments").description, #"["posts", 42, 1.5, "comments"]"#)
    XCTAssertEqual(Set([key, ["posts", 42 as Int64, 1.5]]).count, 1)
  }

  /// The usual keys (`["posts"]`, `["posts", id]`) keep their parts inline, others in an
  /// array: a key compares, hashes and tests prefixes the same whichever way each side holds
  /// its parts.
  func testKeysHeldInlineAndInAnArrayCompareAndNestAlike() {
    let one: LoadKey = ["posts"]
    let two: LoadKey = ["posts", 42]
    let twoInArray: LoadKey = ["posts", 42 as Int64]
    let three: LoadKey = ["posts", 42, "comments"]
    XCTAssertEqual(two, twoInArray)
    XCTAssertEqual(twoInArray, two)
    XCTAssertEqual(two.hashValue, twoInArray.hashValue)
    XCTAssertEqual(one.appending(42), two)
    XCTAssertEqual(one.appending(42).hashValue, two.hashValue)
    XCTAssertEqual(two.appending("comments"), three)
    for (key, prefix) in [(two, one), (twoInArray, one), (three, two), (three, twoInArray)] {
      XCTAssertTrue(key.hasPrefix(prefix), "\(key) does not start with \(prefix)")
      XCTAssertFalse(prefix.hasPrefix(key), "\(prefix) starts with the longer \(key)")
    }
    XCTAssertFalse(two.hasPrefix(["posts", 43]))
    XCTAssertFalse(two.hasPrefix(["users"]))
    XCTAssertNotEqual(LoadKey(["posts", 42]), LoadKey(["users", 42]))
    XCTAssertNotEqual(LoadKey(["posts"]), LoadKey(["users"]))
    XCTAssertNotEqual(LoadKey([42]), LoadKey(["42"]))
    XCTAssertEqual(two.parts.map(\.description), [#""posts""#, "42"])
    XCTAssertEqual(one.description, #"["posts"]"#)
    XCTAssertEqual(Set([one, two, twoInArray, three, ["posts", 42, "comments"]]).count, 3)
  }
}
