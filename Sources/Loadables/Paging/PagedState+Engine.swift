// How the one engine (`LoadMachine`) runs a paged list. Paging adds no state machine: a page
// fetch is a load like any other, and `PagedState` says what its start, outcome, failure and
// reset write. Because a load's outcome is written only while its token is current, "only
// the current load writes" covers every page fetch: a refresh, `reset()` or `cancel()`
// supersedes a next or previous page, whose answer is then never written. One page load
// runs at a time: a next or previous page asked for while any load of the list runs joins
// it (see `LoadMachine+Paging.swift`), so the two ends never build on each other's base.

/// Which page a load fetches, and what it builds on. The context of a paged load.
@usableFromInline
enum PageRequest<Item, Cursor> {
  /// The first page, at the source's first cursor: its outcome replaces the list.
  case first(Cursor)
  /// The page at `cursor`, appended to `base`: the state as it was when the load started.
  /// While the load is current nothing else writes the state (every other write stops the
  /// load first), so `base` is what the outcome is built on. With `maxPages`, the first
  /// pages are dropped so that the list keeps at most that many.
  case next(base: PagedState<Item, Cursor>, cursor: Cursor, maxPages: Int?)
  /// The page at `cursor`, put before `base`'s first page; as ``next(base:cursor:maxPages:)``
  /// but at the other end: with `maxPages`, the last pages are dropped.
  case previous(base: PagedState<Item, Cursor>, cursor: Cursor, maxPages: Int?)
}

extension PageRequest: Sendable where Item: Sendable, Cursor: Sendable {}

extension PagedState: EngineState where Cursor: Equatable {
  @usableFromInline typealias Output = Page<Item, Cursor>
  @usableFromInline typealias Context = PageRequest<Item, Cursor>

  @inlinable static func started(_ request: PageRequest<Item, Cursor>) -> PagedState {
    switch request {
    case .first: PagedState(list: .loading)
    case .next(let base, _, _): base.with(nextPage: .loading)
    case .previous(let base, _, _): base.with(previousPage: .loading)
    }
  }

  @inlinable func isStarted(_ request: PageRequest<Item, Cursor>) -> Bool {
    switch request {
    case .first: list.isLoading
    case .next: nextPage.isLoading
    case .previous: previousPage.isLoading
    }
  }

  @inlinable var isAnyStarted: Bool {
    list.isLoading || nextPage.isLoading || previousPage.isLoading
  }

  @inlinable var holdsValue: Bool { list.isLoaded }

  @inlinable
  static func completed(_ page: Page<Item, Cursor>, _ request: PageRequest<Item, Cursor>)
    -> PagedState
  {
    switch request {
    case .first(let cursor):
      let following = page.following
      var first = page
      first.following = []
      let cursors = [cursor]
      var state = PagedState(
        list: .loaded(first.items),
        nextPage: phaseAtEnd(after: first, pages: 1, cursors: cursors, droppedBefore: []),
        previousPage: phaseAtStart(before: first, cursors: cursors, droppedAfter: []),
        pages: [first], cursors: cursors)
      // A refresh of every loaded page: the pages after the first, appended as next pages.
      for next in following {
        guard let cursor = state.nextCursor, state.hasNextPage else { break }
        state = state.appending(next, at: cursor, maxPages: nil)
      }
      return state
    case .next(let base, let cursor, let maxPages):
      return base.appending(page, at: cursor, maxPages: maxPages)
    case .previous(let base, let cursor, let maxPages):
      return base.prepending(page, at: cursor, maxPages: maxPages)
    }
  }

  /// This state with `page`, fetched at `cursor`, appended. A page dropped from the end is
  /// no longer dropped once fetched again; with `maxPages`, the first pages are dropped so
  /// that the list keeps at most that many, and their cursors remembered for a previous
  /// page to fetch them again.
  @inlinable
  func appending(_ page: Page<Item, Cursor>, at cursor: Cursor, maxPages: Int?) -> PagedState {
    // Appended in place rather than with `+`: this runs on every next page, in code that is
    // generic over the item and cursor, where an array literal costs an allocation and `+`
    // a lookup of the array's metadata.
    var droppedAfter = self.droppedAfter
    if !droppedAfter.isEmpty, droppedAfter[0] == cursor { droppedAfter.removeFirst() }
    var droppedBefore = self.droppedBefore
    var pages = self.pages
    pages.append(page)
    var cursors = self.cursors
    cursors.append(cursor)
    var items = list.data ?? []
    items.append(contentsOf: page.items)
    var previousPage = self.previousPage
    if let maxPages, pages.count > maxPages {
      let dropped = pages.count - maxPages
      let droppedItems = pages[..<dropped].reduce(0) { $0 + $1.items.count }
      droppedBefore += cursors[..<dropped]
      pages.removeFirst(dropped)
      cursors.removeFirst(dropped)
      items.removeFirst(Swift.min(droppedItems, items.count))
      // The page just dropped can be fetched again, whatever the start showed before.
      previousPage = .idle
    }
    // Built once, with its phase: a paged list's outcome is written on every next page.
    let nextPage =
      droppedAfter.isEmpty
      ? Self.phaseAtEnd(
        after: page, pages: pages.count, cursors: cursors, droppedBefore: droppedBefore)
      : .idle
    return PagedState(
      list: .loaded(items), nextPage: nextPage, previousPage: previousPage, pages: pages,
      cursors: cursors, droppedBefore: droppedBefore, droppedAfter: droppedAfter)
  }

  /// This state with `page`, fetched at `cursor`, put before the first page: the mirror of
  /// ``appending(_:at:maxPages:)``, dropping the last pages beyond `maxPages`.
  @inlinable
  func prepending(_ page: Page<Item, Cursor>, at cursor: Cursor, maxPages: Int?) -> PagedState {
    var droppedBefore = self.droppedBefore
    if !droppedBefore.isEmpty, droppedBefore[droppedBefore.count - 1] == cursor {
      droppedBefore.removeLast()
    }
    var droppedAfter = self.droppedAfter
    var pages = self.pages
    pages.insert(page, at: 0)
    var cursors = self.cursors
    cursors.insert(cursor, at: 0)
    var items = page.items
    items.append(contentsOf: list.data ?? [])
    var nextPage = self.nextPage
    if let maxPages, pages.count > maxPages {
      let dropped = pages.count - maxPages
      let droppedItems = pages[maxPages...].reduce(0) { $0 + $1.items.count }
      droppedAfter.insert(contentsOf: cursors[maxPages...], at: 0)
      pages.removeLast(dropped)
      cursors.removeLast(dropped)
      items.removeLast(Swift.min(droppedItems, items.count))
      // The page just dropped can be fetched again, whatever the end showed before.
      nextPage = .idle
    }
    let previousPage =
      droppedBefore.isEmpty
      ? Self.phaseAtStart(before: page, cursors: cursors, droppedAfter: droppedAfter) : .idle
    return PagedState(
      list: .loaded(items), nextPage: nextPage, previousPage: previousPage, pages: pages,
      cursors: cursors, droppedBefore: droppedBefore, droppedAfter: droppedAfter)
  }

  /// The next page's phase once `last` is the last of `pages` loaded pages and no page
  /// dropped from the end waits to be fetched again (the phase is idle while one does): the
  /// end when `last` has no next cursor, a ``RepeatedCursorError`` when its next cursor was
  /// already fetched (by a page loaded or dropped from the start), idle otherwise.
  @inlinable
  static func phaseAtEnd(
    after last: Page<Item, Cursor>, pages: Int, cursors: [Cursor], droppedBefore: [Cursor]
  ) -> NextPageState {
    guard let next = last.next else { return .end }
    if cursors.contains(next) || (!droppedBefore.isEmpty && droppedBefore.contains(next)) {
      return .failed(RepeatedCursorError(cursor: next, page: droppedBefore.count + pages))
    }
    return .idle
  }

  /// The previous page's phase once `first` is the first loaded page and no page dropped
  /// from the start waits to be fetched again: the mirror of
  /// ``phaseAtEnd(after:pages:cursors:droppedBefore:)``, from `first`'s ``Page/previous``.
  @inlinable
  static func phaseAtStart(
    before first: Page<Item, Cursor>, cursors: [Cursor], droppedAfter: [Cursor]
  ) -> NextPageState {
    guard let previous = first.previous else { return .end }
    if cursors.contains(previous) || (!droppedAfter.isEmpty && droppedAfter.contains(previous)) {
      return .failed(RepeatedCursorError(cursor: previous, page: 1, previous: true))
    }
    return .idle
  }

  @inlinable
  static func failed(_ error: any Error, _ request: PageRequest<Item, Cursor>) -> PagedState {
    switch request {
    case .first: PagedState(list: .error(error))
    case .next(let base, _, _): base.with(nextPage: .failed(error))
    case .previous(let base, _, _): base.with(previousPage: .failed(error))
    }
  }

  /// This state with the next page's phase replaced.
  @inlinable
  func with(nextPage: NextPageState) -> PagedState {
    PagedState(
      list: list, nextPage: nextPage, previousPage: previousPage, pages: pages,
      cursors: cursors, droppedBefore: droppedBefore, droppedAfter: droppedAfter)
  }

  /// This state with the previous page's phase replaced.
  @inlinable
  func with(previousPage: NextPageState) -> PagedState {
    PagedState(
      list: list, nextPage: nextPage, previousPage: previousPage, pages: pages,
      cursors: cursors, droppedBefore: droppedBefore, droppedAfter: droppedAfter)
  }

  @inlinable static var resetState: PagedState { PagedState() }

  @inlinable var isResetState: Bool {
    list.isAbsent && pages.isEmpty && nextPage.isIdle && previousPage.isIdle
  }

  @inlinable static func signal(for error: any Error) -> ControlSignal? {
    LoadableState<Item>.signal(for: error)
  }
}
