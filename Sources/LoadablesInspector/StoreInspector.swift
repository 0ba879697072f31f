public import Loadables
public import Observation

/// The model of an inspector for one ``LoaderStore``: what the store holds, what happened to
/// each entry, and the actions a developer takes on it.
///
/// It keeps the store's ``StoreSnapshot`` and, while it listens, each entry's latest
/// ``LoadEvent``s (those whose subject's key is one of the store's). From them it answers
/// "why is this entry stale, and who fetched it last?" (``explain(_:)``). Its actions are
/// the store's inspection hooks: refresh, invalidate, reset, remove, make the next fetch
/// fail, pretend to be offline. ``StoreInspectorView`` shows it on Apple platforms;
/// ``renderTable(now:)`` and ``renderEntry(_:now:)`` write it as text for a terminal.
///
/// <!-- compile: context Inspector -->
/// ```swift
/// let inspector = StoreInspector(store: store)
/// // ... the app runs ...
/// inspector.refresh()
/// print(inspector.renderTable())
/// print(inspector.explain(["posts", 42]))
/// // stale: invalidated 2.10 s ago
/// // last fetch: finished 5.02 s ago after 0.21 s (attempt 1)
/// ```
///
/// Events are kept as they arrive and sorted out on the next turn of the main actor (or at
/// ``refresh()``): a listener must not read a store in the middle of its change. An event
/// says which store it came from (``LoadEvent/storeID``, ``LoadEvent/isFrom(_:)``), so two
/// stores that use the same keys never mix their histories.
///
/// Observable: a SwiftUI view that reads ``snapshot`` re-renders when it changes.
@MainActor
@Observable
public final class StoreInspector {
  /// The store inspected.
  public let store: LoaderStore
  /// How many events each entry's history keeps; older ones go first.
  public let historyLimit: Int
  /// What the store held at the last ``refresh()``.
  public private(set) var snapshot: StoreSnapshot
  /// Each entry's latest events, oldest first, by key; at most ``historyLimit`` each. An
  /// entry that left the store keeps its history (its last events say why it left).
  public private(set) var histories: [LoadKey: [LoadEvent]] = [:]

  @ObservationIgnored private var subscription: LoadEventSubscription?
  /// Events received and not yet sorted: kept until the store can be read.
  @ObservationIgnored private var pending: [LoadEvent] = []
  @ObservationIgnored private var flushScheduled = false
  /// The keys the store held at the last refresh, and every key it held since.
  @ObservationIgnored private var knownKeys: Set<LoadKey> = []

  /// Creates an inspector of `store`, and starts listening to its events unless told not to.
  ///
  /// - Parameters:
  ///   - store: The store to inspect.
  ///   - historyLimit: How many events each entry's history keeps; at least one. 50 by
  ///     default.
  ///   - listening: Whether to listen to ``LoadEvents`` now; `true` by default. Listening
  ///     turns event reporting on for the whole process, which costs a little per load.
  public init(store: LoaderStore, historyLimit: Int = 50, listening: Bool = true) {
    precondition(historyLimit >= 1, "StoreInspector: historyLimit must be at least 1")
    self.store = store
    self.historyLimit = historyLimit
    self.snapshot = store.snapshot()
    knownKeys = Set(snapshot.entries.map(\.key))
    if listening { startListening() }
  }

  deinit {
    // The subscription is main-actor isolated and `Sendable`: ended on the main actor.
    if let subscription { Task { @MainActor in subscription.cancel() } }
  }

  // MARK: - Listening

  /// Whether the inspector listens to ``LoadEvents`` now.
  public var isListening: Bool { subscription?.isActive ?? false }

  /// Starts listening to ``LoadEvents``; nothing happens if it already does.
  public func startListening() {
    guard !isListening else { return }
    subscription = LoadEvents.listen { [weak self] event in self?.receive(event) }
  }

  /// Stops listening; the histories kept so far stay.
  public func stopListening() {
    subscription?.cancel()
    subscription = nil
  }

  /// Takes `event` into the inspector, as its listener does: kept in the history of its
  /// subject's key at the next ``refresh()`` (or turn of the main actor) if that key is one
  /// of the store's. An event of another store (its `storeID` says so), or without a key (a
  /// property's load), is ignored; another store's entry of the same key never mixes in.
  ///
  /// - Parameter event: The event.
  public func receive(_ event: LoadEvent) {
    guard event.subject.key != nil else { return }
    if let storeID = event.storeID, storeID != ObjectIdentifier(store) { return }
    pending.append(event)
    guard !flushScheduled else { return }
    flushScheduled = true
    Task { @MainActor [weak self] in self?.refresh() }
  }

  /// Reads the store again (``snapshot``) and sorts the events received since the last
  /// refresh into the histories.
  public func refresh() {
    flushScheduled = false
    snapshot = store.snapshot()
    knownKeys.formUnion(snapshot.entries.map(\.key))
    guard !pending.isEmpty else { return }
    let events = pending
    pending = []
    for event in events {
      guard let key = event.subject.key, knownKeys.contains(key) else { continue }
      var history = histories[key] ?? []
      history.append(event)
      if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
      histories[key] = history
    }
  }

  // MARK: - Reading

  /// The entry of `key` at the last refresh, if the store held one.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: Its snapshot, or `nil`.
  public func entry(_ key: LoadKey) -> EntrySnapshot? { snapshot.entry(key) }

  /// The events kept for `key`, oldest first.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: The events; empty when none were seen.
  public func history(of key: LoadKey) -> [LoadEvent] { histories[key] ?? [] }

  /// Why the entry of `key` is stale, and who fetched it last, from its snapshot and its
  /// history.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: The explanation.
  public func explain(_ key: LoadKey) -> EntryExplanation {
    EntryExplanation(key: key, entry: entry(key), history: history(of: key))
  }

  // MARK: - Actions

  /// Refreshes the entry of `key` whatever its freshness (``LoaderStore/refresh(_:matching:)``).
  ///
  /// - Parameter key: The entry's key.
  public func refresh(_ key: LoadKey) { act { $0.refresh(key, matching: .exact) } }

  /// Marks the entry of `key` stale (``LoaderStore/invalidate(_:matching:)``).
  ///
  /// - Parameter key: The entry's key.
  public func invalidate(_ key: LoadKey) { act { $0.invalidate(key, matching: .exact) } }

  /// Resets the entry of `key` to no value (``LoaderStore/reset(_:matching:pendingEdits:)``).
  ///
  /// - Parameter key: The entry's key.
  public func reset(_ key: LoadKey) { act { $0.reset(key, matching: .exact) } }

  /// Removes the entry of `key` from the store (``LoaderStore/remove(_:matching:pendingEdits:)``).
  ///
  /// - Parameter key: The entry's key.
  public func remove(_ key: LoadKey) { act { $0.remove(key, matching: .exact) } }

  /// Makes the next fetch of the entry of `key` fail with `error`, once
  /// (``LoaderStore/failNextFetch(of:with:)``).
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - error: The error; ``SimulatedFailure`` by default.
  public func failNextFetch(of key: LoadKey, with error: any Error = SimulatedFailure()) {
    act { $0.failNextFetch(of: key, with: error) }
  }

  /// Whether the store pretends to be offline (``LoaderStore/isSimulatingOffline``); setting
  /// it switches the store.
  public var isSimulatingOffline: Bool {
    get { snapshot.isSimulatingOffline }
    set { act { $0.isSimulatingOffline = newValue } }
  }

  private func act(_ action: (LoaderStore) -> Void) {
    action(store)
    refresh()
  }
}
