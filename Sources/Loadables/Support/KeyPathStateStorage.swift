/// The key-path storage: the slot behind one key path on one instance of a class that adopts
/// ``LoadableSupport`` or ``ProcessSupport``. It holds its owner weakly and reads and writes
/// the state through the key path; ``SlotRegistry`` keeps it while it is needed.
@MainActor @usableFromInline
final class KeyPathStateStorage<Owner: AnyObject, State: EngineState>: LoadRuntime, LoadMachine {
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

  /// The state the current load replaced; see ``LoadMachine/replaced``.
  ///
  /// Kept as a state and a flag rather than as an optional: a key-path slot lives for one
  /// load, and its `deinit` runs unspecialised, where destroying an optional of the generic
  /// state fetches that optional's metadata (a cost `Benchmarks/compare`'s
  /// `cycle.task.keypath` shows); the state's own metadata is at hand.
  @inlinable var replaced: State? {
    get { hasReplaced ? replacedState : nil }
    set {
      if let newValue {
        replacedState = newValue
        hasReplaced = true
      } else if hasReplaced {
        // Let go of the replaced value now, as the optional did.
        replacedState = .resetState
        hasReplaced = false
      }
    }
  }

  @exclusivity(unchecked) @usableFromInline var replacedState: State = .resetState
  @exclusivity(unchecked) @usableFromInline var hasReplaced = false

  @inlinable
  var reference: StrongSlot<KeyPathStateStorage> { StrongSlot(self) }

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

  @usableFromInline override var ownerObject: AnyObject? { owner }

  /// A key path, named as Swift prints it (`\FeedModel.posts`), of its owner: a key-path
  /// slot lives for one load, so the owner is what tells two instances apart.
  @usableFromInline override var eventSubject: LoadSubject {
    LoadSubject(form: .keyPath, name: eventName, objectID: ownerID)
  }

  /// The key path as Swift prints it. A property of an `@Observable` class is computed
  /// (the macro stores it as `_name`), and prints as `<computed …>`: it is named after the
  /// one stored `_name` of its state type instead, when there is exactly one.
  ///
  /// Worked out once per key path and type of owner: a key-path slot lives for one load, and
  /// printing a key path (and reading its owner's mirror) costs thousands of instructions.
  private var eventName: String {
    let known = KeyPathName(keyPath: keyPath, owner: owner.map { ObjectIdentifier(type(of: $0)) })
    if let name = keyPathNames[known] { return name }
    let name = workedOutEventName
    keyPathNames[known] = name
    return name
  }

  private var workedOutEventName: String {
    let printed = "\(keyPath)"
    guard printed.contains("<computed"), let owner else { return printed }
    let stored = Mirror(reflecting: owner).children.compactMap { child -> String? in
      guard let label = child.label, label.hasPrefix("_"), child.value is State else { return nil }
      return String(label.dropFirst())
    }
    guard stored.count == 1 else { return "\\\(Owner.self).(\(State.self))" }
    return "\\\(Owner.self).\(stored[0])"
  }

  /// A slot that nobody observes or watches leaves the table as soon as its load ends.
  @usableFromInline
  override func didBecomeIdle() {
    if !isRunningObserved, observedSides.isDisjoint(with: [.progress, .attempt]), !isWatched,
      !hasRefreshError, following == nil
    {
      SlotRegistry.remove(self, keyPath: keyPath, ownerID: ownerID)
    }
  }
}

/// Reads and writes a key-path slot's state through an owner the caller holds: what a
/// key-path form's synchronous start uses, so that it loads no weak reference.
@MainActor @usableFromInline
struct KeyPathStateAccess<Owner: AnyObject, State>: StateAccess {
  @usableFromInline let owner: Owner
  @usableFromInline let keyPath: ReferenceWritableKeyPath<Owner, State>

  @inlinable
  init(_ owner: Owner, _ keyPath: ReferenceWritableKeyPath<Owner, State>) {
    self.owner = owner
    self.keyPath = keyPath
  }

  @inlinable func read() -> State? { owner[keyPath: keyPath] }

  @inlinable func write(_ state: State) { owner[keyPath: keyPath] = state }
}

/// A key path's event name, as ``KeyPathStateStorage`` works it out: by key path and the
/// owner's type (whose stored properties name a computed property), `nil` once it is gone.
struct KeyPathName: Hashable {
  let keyPath: AnyKeyPath
  let owner: ObjectIdentifier?
}

/// The key paths' event names worked out so far; one per key path a load of which reported
/// its events.
@MainActor private var keyPathNames: [KeyPathName: String] = [:]
