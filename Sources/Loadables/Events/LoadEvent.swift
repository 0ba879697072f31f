public import Foundation

/// One thing that happened to a load, a wait, a shared entry or an edit: what
/// ``LoadEvents`` hands its listeners.
///
/// Every form reports through the same stream: a `@Loadable` or `@Process` property, a
/// key path of a `LoadableSupport` or `ProcessSupport` class, a loader object, a shared
/// entry and the store around it. An event says what happened (``kind``), to what
/// (``subject``), and what was known then: whether the load was silent, which attempt of a
/// retry ran, how long it took, the error it ended with.
///
/// ```swift
/// let subscription = LoadEvents.listen { event in
///   print(event)  // "finished entry ["posts", 42] after 0.21 s (attempt 2)"
/// }
/// ```
public struct LoadEvent: Sendable, CustomStringConvertible {
  /// What happened.
  public let kind: LoadEventKind
  /// What it happened to.
  public let subject: LoadSubject
  /// Whether the load was silent: it kept the state on screen instead of showing a
  /// spinner. `false` for events that are not about a load.
  public let isSilent: Bool
  /// The attempt of a retried load (1 for the first), when a retry policy ran it;
  /// otherwise `nil`.
  public let attempt: Int?
  /// How long it took: from a load's start to its end, or from a wait's start to its end;
  /// `nil` for events that are not the end of something. Measured on the load clock in
  /// force when it started (``LoadClock/current``), so a test's manual clock measures it.
  public let duration: Duration?
  /// What a wait waited for, for ``LoadEventKind/waitBegan`` and
  /// ``LoadEventKind/waitEnded``; otherwise `nil`.
  public let wait: LoadWait?
  /// The error a load failed with, or an edit's job threw; otherwise `nil`.
  public let error: (any Error)?
  /// More about the event, in words, when there is more to say (why an entry was
  /// discarded, which edit was queued); otherwise `nil`.
  public let detail: String?
  /// The ``LoaderStore`` whose entry or edit the event is about, as an `ObjectIdentifier`
  /// (compare it with `ObjectIdentifier(store)`, or ask ``isFrom(_:)``); `nil` for a
  /// property, a key path or a loader. Two stores may use the same keys: this tells their
  /// events apart.
  public let storeID: ObjectIdentifier?
  /// When the event happened, on the wall clock.
  public let date: Date
  /// The event's place in the order of every event this process reported: later events
  /// have larger numbers.
  public let sequence: UInt64

  /// An event; the library makes them, and a test may make its own to check code that reads
  /// them.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - subject: What it happened to.
  ///   - isSilent: Whether the load was silent.
  ///   - attempt: The attempt of a retried load.
  ///   - duration: How long it took.
  ///   - wait: What a wait waited for.
  ///   - error: The error it ended with.
  ///   - detail: More about it, in words.
  ///   - storeID: The store whose entry or edit it is about, if any.
  ///   - date: When it happened.
  ///   - sequence: Its place in the order of events.
  public init(
    kind: LoadEventKind,
    subject: LoadSubject,
    isSilent: Bool = false,
    attempt: Int? = nil,
    duration: Duration? = nil,
    wait: LoadWait? = nil,
    error: (any Error)? = nil,
    detail: String? = nil,
    storeID: ObjectIdentifier? = nil,
    date: Date = Date(),
    sequence: UInt64 = 0
  ) {
    self.kind = kind
    self.subject = subject
    self.isSilent = isSilent
    self.attempt = attempt
    self.duration = duration
    self.wait = wait
    self.error = error
    self.detail = detail
    self.storeID = storeID
    self.date = date
    self.sequence = sequence
  }

  /// Whether the event is about an entry or an edit of `store`.
  ///
  /// - Parameter store: The store.
  /// - Returns: `true` when `store` reported it (or its entry's load did).
  public func isFrom(_ store: LoaderStore) -> Bool {
    storeID == ObjectIdentifier(store)
  }

  /// One line that says what happened, to what, and what was known: "finished entry
  /// ["posts", 42] after 0.21 s (attempt 2)".
  public var description: String {
    var line = "\(kind) \(subject)"
    if let wait { line += " for \(wait)" }
    if let duration { line += " after \(Self.seconds(duration))" }
    var notes: [String] = []
    if isSilent { notes.append("silent") }
    if let attempt { notes.append("attempt \(attempt)") }
    if let error { notes.append("error: \(error)") }
    if let detail { notes.append(detail) }
    if !notes.isEmpty { line += " (\(notes.joined(separator: ", ")))" }
    return line
  }

  /// `duration` in seconds, to the hundredth, the same in every locale: "0.21 s".
  @_spi(Testing) public static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let hundredths = Int64(((Double(seconds) + Double(attoseconds) / 1e18) * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let whole = abs(hundredths) / 100
    let fraction = abs(hundredths) % 100
    return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction) s"
  }
}

/// What a ``LoadEvent`` says happened.
///
/// A load's life: it ``started``, then ends exactly once as ``finished``, ``failed``,
/// ``cancelled``, ``reset`` or ``superseded``. A shared entry's fetch is a load whose
/// subject is the entry, so "who fetched this entry last" is its last ``finished`` event.
public enum LoadEventKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  // MARK: Loads

  /// A load started (its spinner shows, unless it is silent).
  case started
  /// A load ended with its value (or a yielding block returned).
  case finished
  /// A load ended with an error; the event carries it.
  case failed
  /// A load was stopped: `cancel()`, a cancelled task, `CancellationError`, a
  /// `CancelLoadable` thrown from its block, or a new state assigned over it.
  case cancelled
  /// A load was ended by `reset()` or by a `ResetLoadable` thrown from its block.
  case reset
  /// A newer load of the same property, key path, loader or entry started while this one
  /// ran, and took its place: this one's outcome is never written.
  case superseded
  /// A start was ignored: its policy ignores starts while a load runs
  /// (``LoadPolicy/ignoreStartsWhileRunning()-type.method``), and one of the same property,
  /// key path or loader ran. No load started, so no end follows; the running load goes on,
  /// its events as they would have been.
  case ignored

  // MARK: Waits

  /// A load began to wait (for a debounce, a concurrency limit, a retry's backoff, the
  /// network); the event's ``LoadEvent/wait`` says which.
  case waitBegan
  /// A load's wait ended; the event carries how long it waited.
  case waitEnded

  // MARK: The store

  // Each store event's subject is the entry's (``LoadSubject/entry(_:form:)``), and its
  // ``LoadEvent/detail`` says why.

  /// The store made an entry for a key. The detail says which kind: "value" (a
  /// ``SharedLoader``) or "paged" (a ``SharedPagedLoader``), with the ``LoadDefinition`` or
  /// ``PagedLoadDefinition`` type that made it ("value, defined by PostQuery"), and whether
  /// it is kept apart after a ``LoadKeyTypeMismatch``. Reported before anything else of the
  /// entry: a restored value, the outbox's edits laid over it.
  case entryMade
  /// An entry was marked stale, or told to refresh. The detail says by what:
  /// ``LoaderStore/invalidate(_:matching:)`` (with its prefix), ``LoaderStore/invalidateAll()``, the
  /// `invalidating:` keys of an edit that committed, the ``OutboxEdit/invalidates`` of an
  /// outbox edit that was sent, or a ``RefreshTrigger`` that fired (its value is not marked
  /// stale then: the observed entry refreshes at once). A refresh that follows is a load of
  /// the entry: ``started``, silent when a value stays on screen.
  case entryInvalidated
  /// An entry left the store on the store's own account; whoever still holds the object may
  /// use it, but it is no longer shared. The detail says why: nobody observed it for the
  /// store's ``LoaderStore/graceTime``, the store held more than its
  /// ``LoaderStore/maxEntries`` (the least recently used went), or ``LoaderStore/trim()``
  /// answered memory pressure. An entry removed on request is ``entryRemoved`` instead.
  case entryEvicted
  /// An entry dropped part of its value to keep within its limits, and stayed: a paged
  /// entry's next (or previous) page made it hold more than its `maxPages`, so pages at the
  /// other end of the list went (``PagedState/droppedPageCount``,
  /// ``PagedState/droppedTrailingPageCount``). The detail says how many pages.
  case entryTrimmed
  /// An entry showed a value saved in an earlier launch, as the store made it. The detail
  /// says how long before it was fetched.
  case entryRestored
  /// A saved value could not be used and its record was removed: the entry loads as if
  /// nothing was saved. The detail says why: the file was unreadable (torn, truncated, a
  /// bad checksum), the value no longer decodes, it was saved under another version, or it
  /// is older than the persistence's `maxAge`. The subject is the entry's when the record
  /// was read for it; a record dropped while no entry read it (a prefix's records removed)
  /// is named by its saved key, with no ``LoadSubject/key``.
  case entryDiscarded
  /// An entry was removed on request (``LoaderStore/remove(_:matching:pendingEdits:)``), after its
  /// reset; the detail names the prefix.
  case entryRemoved
  /// An entry was reset on request (``LoaderStore/reset(_:matching:pendingEdits:)``) and stays in the
  /// store; the detail names the prefix.
  case entryReset

  // MARK: Edits

  // An edit's change to an entry is reported with the entry's key and the form
  // ``LoadSubject/Form/edit`` (``LoadSubject/entry(_:form:)``), one event per entry it
  // touches, its detail naming the store's edit id. The outbox's own events (queued, sent,
  // failed) have the edit's ``OutboxEdit/scope`` as their key, and their detail names the
  // edit's type and its ``OutboxItem/id``.

  /// An edit's optimistic change was laid over an entry (by
  /// ``LoaderStore/edit(invalidating:_:perform:)``, or by the outbox, also over an entry made
  /// later or after a relaunch). The detail says whether it sets the value or updates it.
  case editApplied
  /// An edit's job succeeded (or the outbox sent it): its change to the entry is now part
  /// of the committed value.
  case editCommitted
  /// An edit's change was taken back from an entry: its job failed (the event carries the
  /// error), the outbox edit failed for good, or it was discarded (no error).
  case editRolledBack
  /// An edit was put in the outbox, to be sent when it can (``LoaderStore/edit(_:delivery:)``), put
  /// back by ``Outbox/retry(_:)`` (the detail says "retried"), or read back from an earlier
  /// launch once its type's handler is registered (the detail says "restored from an
  /// earlier launch").
  case editQueued
  /// The outbox handed an edit to its handler; the event carries the attempt. A transient
  /// failure is retried and sent again, a new `editSent`.
  case editSent
  /// An edit failed for good: its handler threw ``OutboxFailure/permanent(_:)`` (the event
  /// carries the error inside), or a restored edit does not decode. The outbox stops
  /// sending it until ``Outbox/retry(_:)``.
  case editFailed

  /// The kind's name: "started", "entryEvicted".
  public var description: String { rawValue }

  /// Whether this kind ends a load (``finished``, ``failed``, ``cancelled``, ``reset`` or
  /// ``superseded``).
  public var endsLoad: Bool {
    switch self {
    case .finished, .failed, .cancelled, .reset, .superseded: true
    default: false
    }
  }
}

/// What a load waited for.
///
/// A load that waits reports ``LoadEventKind/waitBegan``, then ``LoadEventKind/waitEnded``
/// with how long it waited, measured on the clock the wait sleeps on (the policy's `clock:`,
/// otherwise ``LoadClock/current``), and the retry attempt it waits to run. A wait cut short
/// (`cancel()`, `reset()`, a newer load) still reports its end, before the load's own end.
/// Only real waits are reported: a load that finds a permit free, or that a leading-edge
/// ``Debouncer`` lets through at once, reports none. The callers of a deduplicated fetch each
/// see its waits.
///
/// ```swift
/// // started, waitBegan (backoff, attempt 2), waitEnded (backoff, 2.0 s, attempt 2), finished
/// $feed.load(policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)))) { try await api.feed() }
/// ```
public enum LoadWait: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A debounce's quiet time (`LoadPolicy.debounce`).
  case debounce
  /// A free place under a concurrency limit (`LoadPolicy.limit`).
  case limiter
  /// The delay before a retry's next attempt.
  case backoff
  /// The network to come back (``LoadPolicy/waitsForNetwork(_:)-type.method``).
  case network

  /// The wait's name: "backoff".
  public var description: String { rawValue }
}

/// What an event happened to: a property, a key path, a loader, a shared entry, the outbox.
///
/// Two subjects are equal when they name the same thing: the same property or loader (one
/// slot), the same key path of the same object, or the same key of a store.
public struct LoadSubject: Hashable, Sendable, CustomStringConvertible {
  /// Which form of the library an event came from.
  public enum Form: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A `@Loadable`, `@Process` or `@Paged` property (or its binding).
    case property
    /// A key path of a `LoadableSupport` or `ProcessSupport` class.
    case keyPath
    /// A loader object (`BaseLoader`, `PagedLoader` and the loaders built on them).
    case loader
    /// A shared entry of a ``LoaderStore``, by key.
    case entry
    /// An edit of a ``LoaderStore``, or its outbox.
    case edit

    /// The form's name: "entry".
    public var description: String { rawValue }
  }

  /// Which form of the library the event came from.
  public let form: Form
  /// A name a developer recognises: the key path (`\FeedModel.posts`), the state type of a
  /// property, the loader's type, the entry's key.
  public let name: String
  /// The entry's key, for an entry or an edit of one; otherwise `nil`.
  public let key: LoadKey?
  /// What tells two instances apart: the slot of a property or loader, the object that
  /// owns a key path; `nil` for subjects named by key.
  public let objectID: ObjectIdentifier?

  /// A subject.
  ///
  /// - Parameters:
  ///   - form: Which form the event came from.
  ///   - name: A name a developer recognises.
  ///   - key: The entry's key, if any.
  ///   - objectID: What tells two instances apart, if anything.
  public init(form: Form, name: String, key: LoadKey? = nil, objectID: ObjectIdentifier? = nil) {
    self.form = form
    self.name = name
    self.key = key
    self.objectID = objectID
  }

  /// The subject of a store's entry (or of its edits, with `form` ``Form/edit``) for `key`.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - form: ``Form/entry`` (the default) or ``Form/edit``.
  /// - Returns: The subject.
  public static func entry(_ key: LoadKey, form: Form = .entry) -> LoadSubject {
    LoadSubject(form: form, name: key.description, key: key)
  }

  /// The form and the name: "entry ["posts", 42]".
  public var description: String { "\(form) \(name)" }
}
