/// Why a shared entry's state was written.
///
/// Every write of an entry goes through one funnel and says why, so whoever listens can
/// decide by the cause: a persistence layer keeps only ``fetched`` and ``committedEdit``
/// values, an inspector shows them all.
enum WriteCause: Equatable, Sendable {
  /// A fetch started and showed its spinner.
  case started
  /// A fetch returned (or failed, or a control error asked for its state).
  case fetched
  /// An optimistic edit was laid over the entry.
  case optimisticEdit
  /// An edit's job succeeded: the committed value moved (the state on screen did not).
  case committedEdit
  /// An edit's job failed: the entry shows its base with the remaining edits again.
  case rolledBack
  /// A cancelled fetch brought back the state it replaced.
  case restored
  /// A value saved in an earlier launch was shown as the entry was made.
  case restoredFromDisk
  /// The app gave the entry a value it already had (``SharedEntry/start(with:fetchedAt:)``).
  case initialValue
  /// A placeholder was shown until the first fetch lands
  /// (``SharedEntry/showPlaceholder(_:)``).
  case placeholder
  /// `reset()` wrote the reset state and discarded the pending edits.
  case reset
  /// A state was written directly.
  case assigned
  /// A paged list's next or previous page started, arrived, failed or was cancelled: the
  /// list changed, but it is as fresh as its first page, and the edits committed before stay
  /// laid over it.
  case nextPage
}

extension WriteCause {
  /// Whether a value written for this cause is as fresh as the write: it came from the
  /// server (a fetch, a value saved from one, a value the app says it fetched, a state
  /// assigned outright) or is a placeholder, which is stale from the start. Edits, their
  /// roll-backs, a cancelled fetch's restore and a next page leave the entry as fresh, or as
  /// stale, as it was: none of them says what the server holds now.
  var refreshesFreshness: Bool {
    switch self {
    case .fetched, .restoredFromDisk, .initialValue, .placeholder, .assigned: true
    case .started, .optimisticEdit, .committedEdit, .rolledBack, .restored, .reset, .nextPage:
      false
    }
  }
}

/// What an entry's watchers receive: the state on screen after a write, and why it was
/// written — or, for a commit, the committed value. Typed by the entry's state, so a
/// watcher needs no cast.
struct EntryEvent<State> {
  /// The state on screen now (the committed base with the pending edits laid over it); for
  /// ``WriteCause/committedEdit``, the committed value instead (what a persistence layer
  /// keeps), which pending later edits may hide.
  let state: State
  /// Why it was written.
  let cause: WriteCause
  /// Whether the write left the state on screen as it was (a fetch that brought back the
  /// same value): recorded by those who keep the entry (its saved record), shown to nobody.
  var changesNothing = false

  /// Whether the state on screen changed: `false` for a commit, which only moves the
  /// committed value. The entry hands commits only to watchers that ask for them.
  var changesShown: Bool { cause != .committedEdit }
}

extension EntryEvent: Equatable where State: Equatable {}
