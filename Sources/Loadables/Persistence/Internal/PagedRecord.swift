import Foundation

/// A state whose saved record keeps more than its value: a paged list keeps its pages, the
/// cursor each was fetched with and the remembered cursors of the pages `maxPages` dropped,
/// so that it comes back whole and pages on from where it was.
protocol WholeStateRecord {
  /// The record's bytes for this state, or `nil` when it cannot be saved whole (its items
  /// or cursors are not `Codable`, or it holds no list): the store then saves its value
  /// alone.
  func wholeRecord(_ encoder: JSONEncoder) throws -> Data?

  /// Whether a next or previous page loads: the list is then saved once it arrives.
  var isLoadingPage: Bool { get }

  /// The state saved in `data`: a whole list (``PagedRecord``), or a list saved by an
  /// earlier version of the library as its items alone (a JSON array), which comes back as
  /// it did then, its items with no page. Trims the pages beyond `maxPages` as a next page
  /// would have. `nil` when the state's types are not `Codable`.
  ///
  /// - Throws: When the bytes are not a record of this state (a wrong shape, counts that do
  ///   not add up): the store then removes the record and reports it.
  static func restored(from data: Data, _ decoder: JSONDecoder, maxPages: Int?) throws -> Self?
}

/// The saved form of a loaded ``PagedState``: its items and, for each loaded page, how many
/// items it holds (its items too, only when an edit that added or removed items left the
/// pages as they were fetched), its cursors and the cursor it was fetched with; then the
/// remembered cursors of the pages dropped at either end. Versioned by ``format``; a record
/// that is a JSON array is the format before it (the items alone).
struct PagedRecord<Item, Cursor> {
  /// Why a record does not read back as a list.
  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  /// The record's format; ``currentFormat`` when written by this version.
  var format: Int
  var items: [Item]
  var pages: [SavedPage]
  var cursors: [Cursor]
  var droppedBefore: [Cursor]
  var droppedAfter: [Cursor]

  static var currentFormat: Int { 2 }

  struct SavedPage {
    var count: Int
    /// The page's own items, only when ``PagedRecord/items`` is not the pages end to end.
    var items: [Item]?
    var next: Cursor?
    var previous: Cursor?
  }

  /// The record of `state`; `nil` when it holds no loaded list.
  init?(_ state: PagedState<Item, Cursor>) {
    guard case .loaded(let items) = state.list, !state.pages.isEmpty else { return nil }
    // The pages are the items end to end unless an edit changed how many there are (then
    // the pages stay as fetched, see `PagedState._updatingValue`): their items are saved
    // only then.
    let covered = state.pages.reduce(0) { $0 + $1.items.count } == items.count
    format = Self.currentFormat
    self.items = items
    pages = state.pages.map { page in
      SavedPage(
        count: page.items.count, items: covered ? nil : page.items, next: page.next,
        previous: page.previous)
    }
    cursors = state.cursors
    droppedBefore = state.droppedBefore
    droppedAfter = state.droppedAfter
  }

}

extension PagedRecord where Cursor: Equatable {
  /// The list this record saved, with its phases worked out again from its pages, as the
  /// engine works them out when a page arrives; the pages beyond `maxPages` dropped from
  /// the end, their cursors remembered.
  func state(maxPages: Int?) throws(Malformed) -> PagedState<Item, Cursor> {
    guard format == Self.currentFormat else {
      throw Malformed(description: "paged record format \(format) is not supported")
    }
    guard !pages.isEmpty, cursors.count == pages.count else {
      throw Malformed(
        description: "a paged record with \(pages.count) pages and \(cursors.count) cursors")
    }
    var restored: [Page<Item, Cursor>] = []
    restored.reserveCapacity(pages.count)
    let own = pages.filter { $0.items != nil }.count
    if own == 0 {
      guard pages.allSatisfy({ $0.count >= 0 }),
        pages.reduce(0, { $0 + $1.count }) == items.count
      else {
        throw Malformed(
          description: "a paged record whose page sizes do not add up to its \(items.count) items"
        )
      }
      var start = 0
      for page in pages {
        restored.append(
          Page(
            items: Array(items[start..<(start + page.count)]), previous: page.previous,
            next: page.next))
        start += page.count
      }
    } else {
      guard own == pages.count else {
        throw Malformed(description: "a paged record with the items of some pages only")
      }
      for page in pages {
        restored.append(Page(items: page.items ?? [], previous: page.previous, next: page.next))
      }
    }
    var list = items
    var cursors = self.cursors
    var droppedAfter = self.droppedAfter
    if let maxPages, maxPages >= 1, restored.count > maxPages {
      // Saved under a larger `maxPages`: the last pages go, as a previous page drops them.
      let dropped = restored[maxPages...].reduce(0) { $0 + $1.items.count }
      droppedAfter.insert(contentsOf: cursors[maxPages...], at: 0)
      restored.removeLast(restored.count - maxPages)
      cursors.removeLast(cursors.count - maxPages)
      list.removeLast(Swift.min(dropped, list.count))
    }
    // Built as the engine builds a list, so that the rules for a page fetched twice hold.
    let nextPage: NextPageState =
      droppedAfter.isEmpty
      ? PagedState<Item, Cursor>.phaseAtEnd(
        after: restored[restored.count - 1], pages: restored.count, cursors: cursors,
        droppedBefore: droppedBefore)
      : .idle
    let previousPage: NextPageState =
      droppedBefore.isEmpty
      ? PagedState<Item, Cursor>.phaseAtStart(
        before: restored[0], cursors: cursors, droppedAfter: droppedAfter)
      : .idle
    return PagedState(
      list: .loaded(list), nextPage: nextPage, previousPage: previousPage, pages: restored,
      cursors: cursors, droppedBefore: droppedBefore, droppedAfter: droppedAfter)
  }
}

extension PagedRecord.SavedPage: Codable where Item: Codable, Cursor: Codable {
  private enum CodingKeys: String, CodingKey { case count, items, next, previous }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    count = try container.decode(Int.self, forKey: .count)
    items = try container.decodeIfPresent([Item].self, forKey: .items)
    next = try container.decodeIfPresent(Cursor.self, forKey: .next)
    previous = try container.decodeIfPresent(Cursor.self, forKey: .previous)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encodeIfPresent(items, forKey: .items)
    try container.encodeIfPresent(next, forKey: .next)
    try container.encodeIfPresent(previous, forKey: .previous)
  }
}

extension PagedRecord: Codable where Item: Codable, Cursor: Codable {}

extension PagedState: WholeStateRecord where Cursor: Equatable {
  func wholeRecord(_ encoder: JSONEncoder) throws -> Data? {
    // A dynamic cast: the conformance is conditional on the item and cursor types, which
    // the store does not know statically.
    guard let record = PagedRecord(self), let encodable = record as? any Encodable else {
      return nil
    }
    return try encoder.encode(encodable)
  }

  static func restored(from data: Data, _ decoder: JSONDecoder, maxPages: Int?) throws
    -> PagedState?
  {
    // The format before pages were saved: a JSON array of the items.
    if data.first(where: { !Self.isJSONSpace($0) }) == UInt8(ascii: "[") {
      guard let type = [Item].self as? any Decodable.Type,
        let items = try decoder.decode(type, from: data) as? [Item]
      else { return nil }
      return PagedState(list: .loaded(items))
    }
    guard let type = PagedRecord<Item, Cursor>.self as? any Decodable.Type,
      let record = try Self.decode(type, from: data, decoder) as? PagedRecord<Item, Cursor>
    else { return nil }
    return try record.state(maxPages: maxPages)
  }

  var isLoadingPage: Bool { nextPage.isLoading || previousPage.isLoading }

  /// The value of `type` in `data`, as `Any`: the type is known only dynamically, and the
  /// caller casts it back to the one it named.
  private static func decode<T: Decodable>(_ type: T.Type, from data: Data, _ decoder: JSONDecoder)
    throws -> Any
  {
    try decoder.decode(type, from: data)
  }

  private static func isJSONSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
