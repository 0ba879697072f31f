extension SharedEntry {
  /// Loads the next page of a paged entry, appends it, and returns when the load has
  /// stopped.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// ForEach(feed.state.items) { story in
  ///   StoryRow(story).task { if story.id == feed.state.items.last?.id { await feed.loadNextPage() } }
  /// }
  /// ```
  ///
  /// - A load of the list runs (a first page, a next or previous page): fetches nothing and
  ///   waits for it, so rows that all ask fetch each page once, and one page loads at a time.
  /// - Before the first page, at the end of the list, after a ``RepeatedCursorError``: does
  ///   nothing.
  /// - After a failed next page: fetches that page again.
  /// - After a previous page dropped pages from the end (``PagedState/droppedTrailingPageCount``):
  ///   fetches the first of them again, at the cursor it was first fetched with.
  /// - A list restored with its items alone (saved by an earlier version, or with a cursor
  ///   that is not `Codable`): refreshes the first page (silently), after which pages follow.
  ///
  /// The page is the entry's, as every fetch of it is: cancelling the caller ends only its
  /// wait. A first-page fetch (a load of a stale list, ``refresh()``, an invalidation)
  /// cancels it; an optimistic edit does not. It never makes the list fresh.
  public func loadNextPage<Item, Cursor>() async where State == PagedState<Item, Cursor> {
    await loadAddedPage(previous: false)
  }

  /// Loads the page before the first one of a paged entry, puts it first, and returns when
  /// the load has stopped.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// ForEach(chat.state.items) { message in
  ///   MessageRow(message).task {
  ///     if message.id == chat.state.items.first?.id { await chat.loadPreviousPage() }
  ///   }
  /// }
  /// ```
  ///
  /// - A page was dropped from the start by `maxPages` (``PagedState/droppedPageCount``):
  ///   fetches the last of them again, at the cursor it was first fetched with. Otherwise it
  ///   fetches the page at the first page's ``Page/previous`` cursor.
  /// - A load of the list runs (a first page, a next or previous page): fetches nothing and
  ///   waits for it; one page loads at a time.
  /// - Before the first page, when ``PagedState/hasPreviousPage`` is `false` (a list that
  ///   pages forward only, at its first page), after a ``RepeatedCursorError``: does nothing.
  /// - After a failed previous page: fetches that page again.
  /// - A list restored with its items alone: refreshes the first page (silently), as
  ///   ``loadNextPage()`` does.
  ///
  /// With `maxPages`, the pages at the end are dropped, and a later ``loadNextPage()``
  /// fetches them again at their own cursors. The pending edits are laid over the new list,
  /// so an `update` reaches the page put first. As with ``loadNextPage()``, a first-page
  /// fetch cancels it, an optimistic edit does not, and it never makes the list fresh.
  public func loadPreviousPage<Item, Cursor>() async where State == PagedState<Item, Cursor> {
    await loadAddedPage(previous: true)
  }

  /// Loads the page at one end of a paged entry, or joins the load running.
  private func loadAddedPage<Item, Cursor>(previous: Bool) async
  where State == PagedState<Item, Cursor> {
    beginAddedPage(previous: previous)
    await slot.untilIdle()
  }

  /// The first, synchronous step of a next or previous page: starts its fetch, or joins the
  /// load running (fetching nothing).
  private func beginAddedPage<Item, Cursor>(previous: Bool)
  where State == PagedState<Item, Cursor> {
    if slot.isBusy {
      store?.touch(self)
    } else if book.base.list.isLoaded, book.base.pages.isEmpty {
      startRefresh()
    } else {
      store?.touch(self)
      itemLink?.fetchStarted()
      engine.startAddedPage(engineSlot, previous: previous)
      noteFetchStarted()
    }
  }
}
