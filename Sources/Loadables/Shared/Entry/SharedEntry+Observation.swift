extension SharedEntry {
  // MARK: - Observation

  /// Marks the entry as observed until the returned token ends (``SharedObservation/end()``,
  /// or when the token is released).
  ///
  /// While observed, the entry refreshes when invalidated and runs its refresh triggers.
  /// When observation starts on a stale value, the entry refreshes it silently.
  ///
  /// - Returns: The token that keeps the entry observed.
  public func observe() -> SharedObservation {
    addObserver(Observer(owner: nil, isBound: false, ownerGone: nil))
  }

  /// Marks the entry as observed while `owner` lives (and until the token ends): the
  /// observation of a key-path follower, whose slot holds its owner weakly. Swift has no
  /// callback when an object dies, so everything that asks whether the entry is observed
  /// first ends the observers whose owner is gone (``pruneObservers()``), and calls
  /// `ownerGone` for each.
  func observe(
    while owner: AnyObject, ownerGone: @escaping @MainActor () -> Void
  ) -> SharedObservation {
    followers.boundObservers += 1
    // The store's sweeper checks owners' lives while any entry has such an observer.
    defer { store?.scheduleSweep() }
    return addObserver(Observer(owner: owner, isBound: true, ownerGone: ownerGone))
  }

  private func addObserver(_ observer: Observer) -> SharedObservation {
    let followers = self.followers
    followers.nextObserverID += 1
    let id = followers.nextObserverID
    followers.observers[id] = observer
    perform(book.observe(isFetching: slot.isBusy, at: now))
    return SharedObservation { [weak self] in self?.endObservation(id) }
  }

  /// Keeps the entry observed for as long as the calling task runs; returns when that task
  /// is cancelled.
  ///
  /// In SwiftUI, `.task { await post.observeUntilCancelled() }` keeps an entry observed
  /// while the view is on screen (`LoadingView(entry)` does this for you).
  public func observeUntilCancelled() async {
    let token = observe()
    let (cancelled, continuation) = AsyncStream.makeStream(of: Never.self)
    // An `AsyncStream` ends its iteration when the iterating task is cancelled.
    for await _ in cancelled {}
    continuation.finish()
    token.end()
  }

  /// Whether anyone observes the entry now; see ``observerCount``.
  var isObserved: Bool {
    pruneObservers()
    return !(followersIfMade?.observers.isEmpty ?? true)
  }

  /// Whether some observer lasts only while its owner lives: the store's sweeper then
  /// checks that owner's life (``pruneObservers()``) at least once per grace time.
  var hasBoundObservers: Bool { (followersIfMade?.boundObservers ?? 0) > 0 }

  /// Ends every observer whose owner is gone. The entry is unobserved from now on if that
  /// was the last one, so its grace time counts from the moment it was found unobserved.
  func pruneObservers() {
    guard let followers = followersIfMade, followers.boundObservers > 0 else { return }
    var gone: [Observer] = []
    for (id, observer) in followers.observers where observer.isBound && observer.owner == nil {
      followers.observers[id] = nil
      gone.append(observer)
    }
    guard !gone.isEmpty else { return }
    followers.boundObservers -= gone.count
    let now = self.now
    for _ in gone { perform(book.endObservation(at: now)) }
    for observer in gone { observer.ownerGone?() }
  }

  private func endObservation(_ id: Int) {
    guard let followers = followersIfMade,
      let observer = followers.observers.removeValue(forKey: id)
    else { return }
    if observer.isBound { followers.boundObservers -= 1 }
    perform(book.endObservation(at: now))
  }
}

extension SharedEntry: ObservedWhileShown {}

/// One observer of a shared entry: a token or a subscription, alive until it ends, or a
/// key-path follower, alive until it ends or its owner goes.
@MainActor
struct Observer {
  /// The owner whose life bounds the observer; `nil` for a token, or once the owner is gone.
  weak var owner: AnyObject?
  /// Whether the observer lasts only while ``owner`` lives.
  let isBound: Bool
  /// Ends the following once its owner is found gone.
  let ownerGone: (@MainActor () -> Void)?
}

/// A loader a view should observe while it shows it (`LoadingView` asks).
@MainActor
protocol ObservedWhileShown: AnyObject {
  func observeUntilCancelled() async
}
