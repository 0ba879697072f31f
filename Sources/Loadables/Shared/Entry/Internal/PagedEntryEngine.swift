/// The engine of a paged list's entry: its fetches are the first page's, and its next and
/// previous pages the engine's (``LoadMachine/launchAddedPage(_:previous:priority:)``), all
/// from `source`.
final class PagedEntryEngine<Item: Sendable, Cursor: Equatable & Sendable>:
  EntryEngine<[Item], PagedState<Item, Cursor>>
{
  private let source: PagedSource<Item, Cursor>
  private let refreshedPages: PagedRefresh
  /// The slot's generation of the load that fetches a next or previous page, if one was
  /// started: the engine's writes while the generation is still that one (the page's
  /// spinner, its outcome) are that page's (``WriteCause/nextPage``). Any newer load or stop
  /// moves the generation on. Zero when none was started: no load's generation is zero
  /// (starting one moves the generation on from zero). Kept here, not in the slot, which
  /// every entry has.
  private var addedPageGeneration: UInt64 = 0

  init(_ source: PagedSource<Item, Cursor>, refreshedPages: PagedRefresh) {
    self.source = source
    self.refreshedPages = refreshedPages
    super.init()
  }

  override func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {
    // A first page supersedes a next or previous page in flight; cancelled first, so its
    // spinner goes and the list's freshness stays the first page's.
    if slot.isBusy, isAddedPage(slot.generation) {
      slot.nextCause = .nextPage
      slot.cancel()
      slot.nextCause = nil
    }
    // A silent fetch refreshes a loaded list: a failure keeps the list on screen, as a
    // `refresh` does.
    let policy = silently ? source.policy.keepValueOnFailure() : source.policy
    let first = source.first
    var fetch = source.fetch
    if let failure { fetch = { @Sendable _ in throw failure } }
    // Every loaded page, in order: one request a page, each at the cursor the page before
    // it returned, handed to the engine as one outcome (the first page carrying the rest).
    let count = silently && refreshedPages == .allLoadedPages ? (slot.read()?.pages.count ?? 1) : 1
    guard count > 1 else {
      let block: @MainActor () async throws -> Page<Item, Cursor> = { [weak slot] in
        guard slot != nil else { throw CancellationError() }
        return try await fetch(first)
      }
      _ = slot.launch(
        .first(first), silently: silently, priority: nil, policy: policy, block: block)
      return
    }
    // Each page of the run goes through the policy on its own, as a next page does: a retry
    // retries the page that failed, not the run; a timeout limits one page. The load itself
    // runs under the policy's unwrapped form, so its attempts still show on the entry.
    let block: @MainActor () async throws -> Page<Item, Cursor> = { [weak slot] in
      guard slot != nil else { throw CancellationError() }
      var page = try await policy.wrap({ try await fetch(first) })()
      var cursors = [first]
      var last = page
      while page.following.count + 1 < count, let next = last.next, !cursors.contains(next) {
        cursors.append(next)
        last = try await policy.wrap({ try await fetch(next) })()
        page.following.append(last)
      }
      return page
    }
    _ = slot.launch(
      .first(first), silently: silently, priority: nil, policy: policy.unwrapped, block: block)
  }

  override func startAddedPage(_ slot: Slot, previous: Bool) {
    // The writes of this load (its spinner, its page or its failure) are the added page's;
    // if no load starts, the generation stays and so must the mark.
    let before = slot.generation
    addedPageGeneration = before &+ 1
    _ = slot.launchAddedPage(source, previous: previous, priority: nil)
    if slot.generation == before { addedPageGeneration = 0 }
  }

  override func isAddedPage(_ generation: UInt64) -> Bool {
    addedPageGeneration != 0 && generation == addedPageGeneration
  }

  override func cancel(_ slot: Slot) { slot.cancel() }
  override func reset(_ slot: Slot) { slot.reset() }
  override func fetch(_ slot: Slot) async throws -> [Item] {
    try await source.fetch(source.first).items
  }
  override var policyDescription: String { source.policy.description }
  override var maxPages: Int? { source.maxPages }

  override func droppedPages(in state: PagedState<Item, Cursor>) -> (start: Int, end: Int) {
    (state.droppedPageCount, state.droppedTrailingPageCount)
  }
}
