public import Foundation

/// What a ``LoaderStore`` holds at one moment, as plain values: its entries and its outbox.
///
/// An inspector reads it to list the store; nothing in it reaches back into the store, so it
/// can be kept, compared with a later one, or printed.
///
/// ```swift
/// let snapshot = store.snapshot()
/// for entry in snapshot.entries where entry.isStale {
///   print(entry.key, entry.staleness)  // ["posts", 42] invalidated
/// }
/// ```
public struct StoreSnapshot: Sendable {
  /// The entries, ordered by key (as ``LoadKey/description`` writes it, a key before the
  /// longer keys it starts).
  public let entries: [EntrySnapshot]
  /// The edits queued in the store's ``LoaderStore/outbox``, in the order they are sent.
  public let outbox: [OutboxItem]
  /// How many entries run a fetch now (``LoaderStore/runningCount``).
  public let runningCount: Int
  /// Whether the store's ``LoaderStore/connectivity`` says online; `nil` for a store made
  /// without one.
  public let isOnline: Bool?
  /// Whether the store pretends to be offline (``LoaderStore/isSimulatingOffline``).
  public let isSimulatingOffline: Bool
  /// When the snapshot was taken, on the store's clock (as a wall-clock date).
  public let date: Date

  /// Creates a snapshot; the store makes them (``LoaderStore/snapshot()``), and a test of an
  /// inspector may make its own.
  ///
  /// - Parameters:
  ///   - entries: The entries.
  ///   - outbox: The queued edits.
  ///   - runningCount: How many entries run a fetch now.
  ///   - isOnline: Whether the connectivity says online; `nil` without one.
  ///   - isSimulatingOffline: Whether the store pretends to be offline.
  ///   - date: When the snapshot was taken.
  public init(
    entries: [EntrySnapshot], outbox: [OutboxItem], runningCount: Int, isOnline: Bool?,
    isSimulatingOffline: Bool, date: Date
  ) {
    self.entries = entries
    self.outbox = outbox
    self.runningCount = runningCount
    self.isOnline = isOnline
    self.isSimulatingOffline = isSimulatingOffline
    self.date = date
  }

  /// The entry of `key`, if the store held one (the first of them, for a key asked for with
  /// two value types).
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: The entry's snapshot, or `nil`.
  public func entry(_ key: LoadKey) -> EntrySnapshot? {
    entries.first { $0.key == key }
  }
}
