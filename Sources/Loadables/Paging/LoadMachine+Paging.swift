// The paged operations — a first page (`load`, `refresh`), a next page and a previous page —
// over the engine's own paths (`launch`, `perform` with a policy). Every form calls these; none has
// paging logic of its own.

extension LoadMachine {
  /// Starts a load of the first page in a new task. `refreshing` keeps the list on screen
  /// until the new first page arrives, and keeps it after a failure (the error shows as
  /// `refreshError`); see ``refreshRequest(_:)``.
  @inlinable
  func launchFirstPage<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    refreshing: Bool,
    priority: TaskPriority?
  ) -> Task<Void, Never> where State == PagedState<Item, Cursor> {
    let (silently, policy) = firstPageMode(source, refreshing: refreshing)
    let fetch = source.fetch
    let cursor = source.first
    return launch(
      .first(cursor), silently: silently, priority: priority, policy: policy,
      block: { try await fetch(cursor) })
  }

  /// Loads the first page and returns when the load has stopped.
  @inlinable
  func performFirstPage<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    refreshing: Bool
  ) async where State == PagedState<Item, Cursor> {
    let (silently, policy) = firstPageMode(source, refreshing: refreshing)
    let fetch = source.fetch
    let cursor = source.first
    await runAwaited(
      .first(cursor), silently: silently, policy: policy, block: { try await fetch(cursor) })
  }

  /// How a first-page load runs. A plain load shows `.loading` in place of the list. A
  /// refresh of a loaded list is silent and keeps the list if it fails; before it starts, a
  /// next or previous page in flight is cancelled (its spinner goes, and its answer is never
  /// written). A refresh with no list loaded yet is a plain load.
  @inlinable
  func firstPageMode<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    refreshing: Bool
  ) -> (silently: Bool, policy: LoadPolicy<Page<Item, Cursor>>)
  where State == PagedState<Item, Cursor> {
    guard refreshing, let current = read(), current.list.isLoaded else {
      return (false, source.policy)
    }
    if isBusy, current.nextPage.isLoading || current.previousPage.isLoading { cancel() }
    return (true, source.policy.keepValueOnFailure())
  }

  /// Starts a load of the next page in a new task; see ``performNextPage(_:)``. While a
  /// load of the list runs, the returned task joins it instead.
  @inlinable
  func launchNextPage<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    priority: TaskPriority?
  ) -> Task<Void, Never> where State == PagedState<Item, Cursor> {
    launchAddedPage(source, previous: false, priority: priority)
  }

  /// Starts a load of the previous page in a new task; see ``performPreviousPage(_:)``.
  /// While a load of the list runs, the returned task joins it instead.
  @inlinable
  func launchPreviousPage<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    priority: TaskPriority?
  ) -> Task<Void, Never> where State == PagedState<Item, Cursor> {
    launchAddedPage(source, previous: true, priority: priority)
  }

  /// Loads the next page and returns when that load has stopped.
  ///
  /// Does nothing before the first page has arrived, at the end of the list, or after a
  /// repeated cursor. While any load of the list runs — a next or previous page, or a first
  /// page or refresh whose answer will replace the list — it fetches nothing and waits for
  /// that load instead: two calls never fetch the same page twice, and a next and a previous
  /// page never build on each other's list. After a failed next page it fetches that page
  /// again.
  @inlinable
  func performNextPage<Item, Cursor>(_ source: PagedSource<Item, Cursor>) async
  where State == PagedState<Item, Cursor> {
    await performAddedPage(source, previous: false)
  }

  /// Loads the previous page, puts it before the first, and returns when that load has
  /// stopped: the mirror of ``performNextPage(_:)`` at the start of the list.
  @inlinable
  func performPreviousPage<Item, Cursor>(_ source: PagedSource<Item, Cursor>) async
  where State == PagedState<Item, Cursor> {
    await performAddedPage(source, previous: true)
  }

  /// Starts a load of the page at one end of the list in a new task, or joins the load
  /// running.
  @inlinable
  func launchAddedPage<Item, Cursor>(
    _ source: PagedSource<Item, Cursor>,
    previous: Bool,
    priority: TaskPriority?
  ) -> Task<Void, Never> where State == PagedState<Item, Cursor> {
    if isBusy {
      return Task { await self.untilIdle() }
    }
    guard let request = addedPageRequest(previous: previous, maxPages: source.maxPages) else {
      return Task {}
    }
    let fetch = source.fetch
    return launch(
      request.context, silently: false, priority: priority, policy: source.policy,
      block: { try await fetch(request.cursor) })
  }

  /// Loads the page at one end of the list and returns when the load has stopped, or joins
  /// the load running.
  @inlinable
  func performAddedPage<Item, Cursor>(_ source: PagedSource<Item, Cursor>, previous: Bool) async
  where State == PagedState<Item, Cursor> {
    if isBusy {
      await untilIdle()
      return
    }
    guard let request = addedPageRequest(previous: previous, maxPages: source.maxPages) else {
      return
    }
    let fetch = source.fetch
    await runAwaited(
      request.context, silently: false, policy: source.policy,
      block: { try await fetch(request.cursor) })
  }

  /// What a next-page (or, when `previous`, a previous-page) load fetches, built on the
  /// state as it is now; `nil` when there is no such page to fetch.
  @inlinable
  func addedPageRequest<Item, Cursor>(
    previous: Bool,
    maxPages: Int?
  ) -> (context: PageRequest<Item, Cursor>, cursor: Cursor)?
  where State == PagedState<Item, Cursor> {
    guard let current = read() else { return nil }
    if previous {
      guard current.hasPreviousPage, let cursor = current.previousCursor else { return nil }
      return (.previous(base: current, cursor: cursor, maxPages: maxPages), cursor)
    }
    guard current.hasNextPage, let cursor = current.nextCursor else { return nil }
    return (.next(base: current, cursor: cursor, maxPages: maxPages), cursor)
  }
}
