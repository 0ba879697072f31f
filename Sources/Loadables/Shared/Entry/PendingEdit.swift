/// One edit in an entry's log.
struct PendingEdit<State: SharedEntryState> {
  /// The store's id of the edit transaction.
  let id: UInt64
  let operation: EditOperation<State.Value>
  /// The book's fetch epoch when the edit's job succeeded; `nil` while it runs. A fetch
  /// started after that carries the change.
  var committedAt: UInt64?
  /// The state shown with this edit and every earlier one laid over the base, kept on the
  /// log's last edit (`nil` on the others): it is the book's ``EntryBook/shown`` while edits
  /// are pending, so a book with none holds no second state.
  var laid: State?
}

/// A change an edit lays over a base: re-applied as it is, or re-run, whenever the base
/// changes. (An edit the app may have to send later becomes a `Codable` kind here.)
enum EditOperation<Value> {
  /// Show this value, whatever the base.
  case set(Value)
  /// Change the base's value; a base with no value stays as it is.
  case update((inout Value) -> Void)

  var isSet: Bool {
    if case .set = self { return true }
    return false
  }

  /// `state` with this change laid over it.
  func apply<State: SharedEntryState>(to state: State) -> State where State.Value == Value {
    switch self {
    case .set(let value):
      return state._holding(value)
    case .update(let change):
      return state._updatingValue { value in
        var value = value
        change(&value)
        return value
      }
    }
  }
}
