/// The control behind a key-path form's ``LoadHandle``: the owner, held weakly, and the key
/// path. A key path's slot is transient (``SlotRegistry`` drops an idle slot nobody observes),
/// so the control keeps no slot: each use looks the slot up, as the key-path functions do.
@MainActor @usableFromInline
final class KeyPathControl<Owner: AnyObject, State: EngineState>: LoadControl {
  @usableFromInline weak var owner: Owner?
  @usableFromInline let keyPath: ReferenceWritableKeyPath<Owner, State>

  @usableFromInline
  init(_ owner: Owner, _ keyPath: ReferenceWritableKeyPath<Owner, State>) {
    self.owner = owner
    self.keyPath = keyPath
  }

  /// The owner's state; the reset state once the owner is gone.
  @usableFromInline var controlState: State { owner?[keyPath: keyPath] ?? .resetState }

  /// The key path's slot, made (and kept while observed) if there is none; an idle runtime
  /// of its own once the owner is gone.
  @usableFromInline var controlRuntime: LoadRuntime {
    guard let owner else { return LoadRuntime() }
    return SlotRegistry.slot(owner, keyPath)
  }

  @usableFromInline func controlStates() -> StateStream<State> {
    guard let owner else {
      // Nothing will ever be written: a stream of the reset state alone.
      return StateStream(current: .resetState, holding: nil) { _ in {} }
    }
    return StateStream(slot: SlotRegistry.slot(owner, keyPath), current: owner[keyPath: keyPath])
  }

  @usableFromInline func controlCancel() {
    guard let owner else { return }
    SlotRegistry.existingSlot(owner, keyPath)?.cancel()
  }

  @usableFromInline func controlReset() {
    guard let owner else { return }
    SlotRegistry.reset(owner, keyPath)
  }

  @usableFromInline func controlWatch(
    _ callback: @escaping @MainActor (State) -> Void
  ) -> @MainActor () -> Void {
    // Once the owner is gone nothing is ever written: nothing to watch.
    guard let owner else { return {} }
    let watch = StateWatch(slot: SlotRegistry.slot(owner, keyPath), callback: callback)
    return { watch.cancel() }
  }
}
