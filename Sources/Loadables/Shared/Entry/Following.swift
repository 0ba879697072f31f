// The wrapper and the key-path form follow a shared entry: the entry's states are mirrored
// into their own state, through the engine's `emit`, for as long as they follow it.

extension LoadMachine {
  /// Shows `entry`'s state now and mirrors every state written to it from now on, until
  /// this slot starts, stops or resets a load of its own, is assigned, or goes away — or,
  /// when `owner` is given (a key-path slot, which holds its owner weakly), until `owner`
  /// goes. The slot counts as one observer of the entry meanwhile, and its handle shows the
  /// entry's status. A slot that follows `entry` already goes on following it.
  func follow<Value>(
    _ entry: SharedEntry<Value, State>, owner: AnyObject? = nil
  ) where State: SharedEntryState & Sendable, State.Value == Value {
    if let current = following as? SharedFollow, current.isFollowing(entry) { return }
    let target = reference
    let follow = SharedFollow(entry: entry, runtime: entry.slot)
    // A write that leaves the entry's state as it was shows nothing new, as for the entry's
    // own observers; a following ended since (its release ends it on the next turn) writes
    // nothing.
    let watcher = entry.addWatcher { [weak follow] event in
      guard !event.changesNothing, let slot = target.value, let follow,
        slot.following === follow
      else { return }
      slot.emit(event.state)
    }
    follow.unwatch = { [weak entry] in entry?.removeWatcher(watcher) }
    if let owner {
      // The entry asks whether `owner` lives whenever it counts its observers, and ends
      // this following as soon as it finds the owner gone.
      follow.observation = entry.observe(while: owner) { [weak self, weak follow] in
        guard let self, let follow else { return }
        self.endFollowing(follow)
      }
    } else {
      follow.observation = entry.observe()
    }
    stop(following: follow)
    replaced = nil
    emit(entry.slot.storage)
  }

  /// The owner of this slot is gone: ends `follow` now and, if the slot still follows it,
  /// lets the slot leave its table.
  func endFollowing(_ follow: SharedFollow) {
    follow.end()
    guard following === follow else { return }
    stop()
    didBecomeIdle()
  }
}

/// One slot's following of a shared entry: ends it when released, or at ``end()``.
@MainActor
final class SharedFollow {
  /// The entry followed, to tell whether a slot follows it already.
  private weak var entry: AnyObject?
  /// The entry's slot, whose status the following slot's handle shows.
  private(set) weak var runtime: LoadRuntime?
  /// Stops mirroring the entry's states.
  var unwatch: @MainActor () -> Void = {}
  var observation: SharedObservation?
  private var ended = false

  init(entry: AnyObject, runtime: LoadRuntime) {
    self.entry = entry
    self.runtime = runtime
  }

  /// Whether this is a following of `entry`.
  func isFollowing(_ entry: AnyObject) -> Bool { !ended && self.entry === entry }

  /// Stops mirroring the entry and ends the observation now. Calling it again does nothing.
  func end() {
    guard !ended else { return }
    ended = true
    runtime = nil
    unwatch()
    observation?.end()
  }

  deinit {
    // Removing a watcher twice and ending an observation twice are harmless, so a following
    // already ended is harmless here.
    let unwatch = self.unwatch
    let observation = self.observation
    Task { @MainActor in
      unwatch()
      observation?.end()
    }
  }
}

extension Loadable.Binding {
  /// Shows a shared entry's state in this property and keeps following it — an
  /// invalidation's refresh, another screen's edit — until this property starts, cancels
  /// or resets a load of its own, is assigned, or goes away; starts the entry's load (see
  /// ``SharedEntry/load(silently:)``) in a new task.
  ///
  /// ```swift
  /// $post.load(from: store.loader(for: ["posts", id]) { try await api.post(id) })
  /// ```
  ///
  /// While it follows, the property's ``handle`` shows the entry's status: `$post.isRunning`
  /// is `true` while the entry fetches, `$post.refreshError` is the entry's.
  ///
  /// - Parameters:
  ///   - entry: The shared entry to follow.
  ///   - silently: When `true`, the entry's load does not write `.loading`.
  /// - Returns: The task running the entry's load.
  @MainActor @discardableResult
  public func load(from entry: SharedLoader<Value>, silently: Bool = false) -> Task<
    Void, Never
  > {
    storage.follow(entry)
    return Task { await entry.load(silently: silently) }
  }

  /// Shows a shared entry's state in this property, keeps following it, and returns when
  /// the entry's load ends; see ``load(from:silently:)-(SharedLoader<Value>,_)``.
  ///
  /// - Parameters:
  ///   - entry: The shared entry to follow.
  ///   - silently: When `true`, the entry's load does not write `.loading`.
  @MainActor
  public func load(from entry: SharedLoader<Value>, silently: Bool = false) async {
    storage.follow(entry)
    await entry.load(silently: silently)
  }
}

extension LoadableSupport {
  /// Shows a shared entry's state in `state` and keeps following it for as long as this
  /// instance lives (or until a load, cancel or reset of `state` of its own); starts the
  /// entry's load in a new task.
  ///
  /// While it follows, `handle(state)` shows the entry's status (`isRunning`,
  /// `refreshError`, …). The following counts as one observer of the entry. Once this
  /// instance is released it no longer does: ``SharedEntry/observerCount``, ``LoaderStore/trim()``,
  /// ``LoaderStore/invalidate(_:matching:)`` and the store's grace time all see the entry as
  /// unobserved from then on.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - entry: The shared entry to follow.
  ///   - silently: When `true`, the entry's load does not write `.loading`.
  /// - Returns: The task running the entry's load.
  @MainActor @discardableResult
  public func load<Value: Sendable>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    from entry: SharedLoader<Value>,
    silently: Bool = false
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    return Task { await entry.load(silently: silently) }
  }

  /// Shows a shared entry's state in `state`, keeps following it, and returns when the
  /// entry's load ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - entry: The shared entry to follow.
  ///   - silently: When `true`, the entry's load does not write `.loading`.
  @MainActor
  public func load<Value: Sendable>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    from entry: SharedLoader<Value>,
    silently: Bool = false
  ) async {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    await entry.load(silently: silently)
  }
}
