/// What an ``EntryBook`` asks its entry to do.
enum EntryEffect: Equatable {
  /// Start a fetch, superseding a running one.
  case startFetch(silently: Bool)
  /// Show the book's ``EntryBook/shown`` state (the base with the edits laid over it),
  /// written for the cause.
  case write(WriteCause)
  /// An edit committed: the committed value is now the book's ``EntryBook/committed``
  /// (nothing on screen changed).
  case committed
  /// Tell observers whether the value is stale.
  case setStale(Bool)
  /// Tell observers the value turned stale after this long, unless stopped first.
  case startStaleTimer(after: Duration)
  case stopStaleTimer
  /// Run the entry's refresh triggers while it is observed.
  case startTriggers
  case stopTriggers
  /// Make sure the store's grace sweeper runs.
  case scheduleSweep
}

/// The effects of one event of an ``EntryBook``, in order: four at most (no event asks for
/// more), kept inline so that returning them allocates nothing.
struct EntryEffects: Equatable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
  private var storage: (EntryEffect?, EntryEffect?, EntryEffect?, EntryEffect?) = (
    nil, nil, nil, nil
  )
  private(set) var count = 0

  init(arrayLiteral effects: EntryEffect...) {
    for effect in effects { append(effect) }
  }

  /// Adds `effect` after the others. No event asks for more than four; a fifth would be a
  /// bug in the book, which its tests catch (a release build drops it rather than crash).
  mutating func append(_ effect: EntryEffect) {
    switch count {
    case 0: storage.0 = effect
    case 1: storage.1 = effect
    case 2: storage.2 = effect
    case 3: storage.3 = effect
    default:
      assertionFailure("EntryEffects: more than four effects for one event")
      return
    }
    count += 1
  }

  var isEmpty: Bool { count == 0 }

  private func effect(at index: Int) -> EntryEffect? {
    switch index {
    case 0: storage.0
    case 1: storage.1
    case 2: storage.2
    case 3: storage.3
    default: nil
    }
  }

  func makeIterator() -> Iterator { Iterator(effects: self) }

  struct Iterator: IteratorProtocol {
    let effects: EntryEffects
    var index = 0

    mutating func next() -> EntryEffect? {
      guard index < effects.count else { return nil }
      defer { index += 1 }
      return effects.effect(at: index)
    }
  }

  static func == (lhs: EntryEffects, rhs: EntryEffects) -> Bool {
    lhs.count == rhs.count && lhs.elementsEqual(rhs)
  }

  var description: String { "\(Array(self))" }
}
