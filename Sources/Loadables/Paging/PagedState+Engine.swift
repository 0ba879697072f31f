// How the one engine (`LoadMachine`) runs a paged list. Paging adds no state machine: a page
// fetch is a load like any other, and `PagedState` says what its start, outcome, failure and
// reset write. Because a load's outcome is written only while its token is current, "only
// the current load writes" covers every page fetch: a refresh, `reset()` or `cancel()`
// supersedes a next page, whose answer is then never written.

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
}

extension PageRequest: Sendable where Item: Sendable, Cursor: Sendable {}

extension PagedState: EngineState where Cursor: Equatable {
  @usableFromInline typealias Output = Page<Item, Cursor>
  @usableFromInline typealias Context = PageRequest<Item, Cursor>

  @inlinable static func started(_ request: PageRequest<Item, Cursor>) -> PagedState {
    switch request {
    case .first: PagedState(list: .loading)
    case .next(let base, _, _): base.with(nextPage: .loading)
    }
  }

  @inlinable func isStarted(_ request: PageRequest<Item, Cursor>) -> Bool {
    switch request {
    case .first: list.isLoading
    case .next: nextPage.isLoading
    }
  }

  @inlinable var isAnyStarted: Bool { list.isLoading || nextPage.isLoading }

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
      var state = PagedState(
        list: .loaded(first.items), nextPage: phase(after: first, fetched: [cursor]),
        pages: [first], cursors: [cursor])
      // A refetch of every loaded page: the pages after the first, appended as next pages.
      for next in following {
        guard let cursor = state.nextCursor, state.hasNextPage else { break }
        state = completed(next, .next(base: state, cursor: cursor, maxPages: nil))
      }
      return state
    case .next(let base, let cursor, let maxPages):
      // Every cursor fetched is kept, dropped pages' too: a source that loops still stops.
      let cursors = base.cursors + [cursor]
      var pages = base.pages + [page]
      var items = (base.list.data ?? []) + page.items
      if let maxPages, pages.count > maxPages {
        let dropped = pages.count - maxPages
        let droppedItems = pages[..<dropped].reduce(0) { $0 + $1.items.count }
        pages.removeFirst(dropped)
        items.removeFirst(min(droppedItems, items.count))
      }
      return PagedState(
        list: .loaded(items), nextPage: phase(after: page, fetched: cursors), pages: pages,
        cursors: cursors)
    }
  }

  /// The next page's phase once `page` arrived: the end when it has no next cursor, a
  /// ``RepeatedCursorError`` when its next cursor was already fetched, idle otherwise.
  @inlinable
  static func phase(after page: Page<Item, Cursor>, fetched cursors: [Cursor]) -> NextPageState {
    guard let next = page.next else { return .end }
    if cursors.contains(next) {
      return .failed(RepeatedCursorError(cursor: next, page: cursors.count))
    }
    return .idle
  }

  @inlinable
  static func failed(_ error: any Error, _ request: PageRequest<Item, Cursor>) -> PagedState {
    switch request {
    case .first: PagedState(list: .error(error))
    case .next(let base, _, _): base.with(nextPage: .failed(error))
    }
  }

  /// This state with the next page's phase replaced.
  @inlinable
  func with(nextPage: NextPageState) -> PagedState {
    PagedState(list: list, nextPage: nextPage, pages: pages, cursors: cursors)
  }

  @inlinable static var resetState: PagedState { PagedState() }

  @inlinable var isResetState: Bool { list.isAbsent && pages.isEmpty && nextPage.isIdle }

  @inlinable static func signal(for error: any Error) -> ControlSignal? {
    LoadableState<Item>.signal(for: error)
  }
}
