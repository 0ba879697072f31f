extension SharedEntry: LoadControl {
  @usableFromInline var controlState: State { state }
  @usableFromInline var controlRuntime: LoadRuntime { slot }
  @usableFromInline func controlStates() -> StateStream<State> { states }
  @usableFromInline func controlCancel() { cancel() }
  @usableFromInline func controlReset() { reset() }
  @usableFromInline func controlWatch(_ callback: @escaping @MainActor (State) -> Void)
    -> @MainActor () -> Void
  {
    let id = addWatcher { event in
      if !event.changesNothing { callback(event.state) }
    }
    return { [weak self] in self?.removeWatcher(id) }
  }
}
