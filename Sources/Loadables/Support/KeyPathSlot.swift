/// The slot behind one key path on one instance of a class that adopts ``LoadableSupport``
/// or ``ProcessSupport``. It holds its owner weakly and writes through the key path.
@MainActor @usableFromInline
final class KeyPathSlot<Owner: AnyObject, State: EngineState>: LoadSlot, StateSlot {
  @exclusivity(unchecked) @usableFromInline weak var owner: Owner?
  @usableFromInline let keyPath: ReferenceWritableKeyPath<Owner, State>
  @usableFromInline let ownerID: ObjectIdentifier

  @inlinable
  init(owner: Owner, keyPath: ReferenceWritableKeyPath<Owner, State>) {
    self.owner = owner
    self.keyPath = keyPath
    self.ownerID = ObjectIdentifier(owner)
    super.init()
  }

  /// The state the current load replaced; see ``StateSlot/replaced``.
  @exclusivity(unchecked) @usableFromInline var replaced: State?

  @inlinable
  var reference: StrongSlot<KeyPathSlot> { StrongSlot(self) }

  @inlinable
  func read() -> State? { owner?[keyPath: keyPath] }

  @inlinable
  func write(_ state: State) {
    guard let owner else {
      // The owner is gone: nothing can show this load, so stop it now.
      stop()
      return
    }
    owner[keyPath: keyPath] = state
  }

  /// A slot that nobody observes or watches leaves the table as soon as its load ends.
  @usableFromInline
  override func didBecomeIdle() {
    if !isRunningObserved, !isProgressObserved, !isAttemptObserved, !isWatched,
      !hasRefreshError, following == nil
    {
      SlotRegistry.remove(self, keyPath: keyPath, ownerID: ownerID)
    }
  }
}
