public import Foundation

// Starting values: an entry can start from a value the app already has (the row the user
// tapped), or show a placeholder until its first fetch lands. Both go through the entry's
// book, so edits lay over them and a fetch replaces them like any base; neither is saved
// between launches until a fetch (or, for a starting value with a fetch time, a committed
// edit) makes it the entry's own.

extension SharedEntry {
  /// Whether the entry shows a placeholder that no fetch has replaced yet (see
  /// ``showPlaceholder(_:)``). Observable.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// PostView(post: post.state.data).redacted(reason: post.isPlaceholder ? .placeholder : [])
  /// ```
  public var isPlaceholder: Bool { slot.isPlaceholder }

  /// Shows `value` as the entry's own, as if fetched at `fetchedAt`, when the entry holds no
  /// value and no fetch runs: the detail screen starts from the row the user tapped.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let detail = store.loader(for: PostQuery(id: row.id))
  /// detail.start(with: row, fetchedAt: feed.fetchedAt)  // as fresh as the feed
  /// await detail.load()  // fetches only once that age passes the stale time
  /// ```
  ///
  /// With a `fetchedAt`, the value is as fresh as that age says against the stale time, it
  /// is ``fetchedAt`` until the next fetch, and a committed edit over it is saved by the
  /// store's persistence. Without one (the default) it is stale at once: the next load or
  /// observer refreshes it silently, keeping it on screen. A `fetchedAt` in the future
  /// counts as now. Unlike ``showPlaceholder(_:)``, the value is not flagged.
  ///
  /// - Parameters:
  ///   - value: The value to show.
  ///   - fetchedAt: When it was fetched (wall clock), or `nil` for "long ago" (so is a date
  ///     that is not finite).
  /// - Returns: Whether the value was used: `false`, changing nothing, when the entry holds
  ///   a value or a fetch runs (that fetch's answer is newer).
  @discardableResult
  public func start(with value: Value, fetchedAt: Date? = nil) -> Bool {
    guard !book.showsValue, !isFetching else { return false }
    let now = self.now
    let at = fetchedAt.flatMap(storeTime(of:)).map { min($0, now) }
    perform(book.start(with: book.base._holding(value), fetchedAt: at, at: now))
    return true
  }

  /// Shows `value` as a placeholder until the first fetch lands, when the entry holds no
  /// value and no fetch runs: a detail screen shows what the list already knows.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let detail = store.loader(for: ["posts", id]) { try await api.post(id) }
  /// if let row = feed.state.data?.first(where: { $0.id == id }) {
  ///   detail.showPlaceholder(row)
  /// }
  /// await detail.load()  // refreshes silently; the placeholder stays on screen meanwhile
  /// ```
  ///
  /// The state is `.loaded(value)` and ``isPlaceholder`` is `true` until the engine writes
  /// anything else: the fetch's value (or its error, as the entry's policy writes it), a
  /// reset, an assignment. A placeholder is stale, has no ``fetchedAt``, and is never saved
  /// between launches, even with an edit committed over it. A ``LoadDefinition`` can
  /// compute one for every entry it makes (``LoadDefinition/placeholder(in:)``), and so can
  /// a ``PagedLoadDefinition`` for its list (``PagedLoadDefinition/placeholder(in:)``).
  ///
  /// - Parameter value: The value to show meanwhile.
  /// - Returns: Whether it is shown: `false`, changing nothing, when the entry holds a value
  ///   or a fetch runs.
  @discardableResult
  public func showPlaceholder(_ value: Value) -> Bool {
    guard !book.showsValue, !isFetching else { return false }
    perform(book.showPlaceholder(book.base._holding(value), at: now))
    return true
  }

  /// `date` on the store's stopwatch (zero, the store's start, for an entry without one);
  /// `nil` for a date no clock can hold (not finite), which then counts as "long ago".
  private func storeTime(of date: Date) -> Duration? {
    guard let store else { return .zero }
    let seconds = date.timeIntervalSince(store.startDate)
    guard seconds.isFinite else { return nil }
    // Within about 30 million years either way: a Duration holds it, and no age is longer.
    return .seconds(Swift.min(Swift.max(seconds, -1e15), 1e15))
  }
}
