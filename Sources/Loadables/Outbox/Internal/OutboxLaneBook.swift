/// Decides what a scope's lane does next, from facts alone: the first edit of the scope not
/// failed, whether the network is there, and where the store stands with the sender lock.
/// No tasks, no clock reads, no files.
///
/// The outbox (the runner) gathers the facts, performs the action this returns (a save, a
/// look at the folder, a send...) and asks again when the action says so.
///
/// | facts, first that applies | action |
/// |---|---|
/// | no edit left, the lock held and the folder not looked at in this step | `lookForWrites` |
/// | no edit left | `end` |
/// | the edit's value or its type's handler is unknown | `endWithoutHandler` |
/// | its record is not saved | `save` |
/// | offline, an edit sent once (``EditDelivery/now``) | `dropOffline` |
/// | offline | `waitOnline` |
/// | a lock is needed and not held | `takeLock` |
/// | the lock held, the folder not looked at in this step nor for the interval (``Outbox/lookInterval``: none) | `lookForWrites` |
/// | otherwise | `send` |
struct OutboxLaneBook: Equatable {
  /// The first edit of the scope not failed.
  struct Head: Equatable {
    /// Whether its value and its type's handler are known.
    var canSend: Bool
    /// Whether its record is written (an edit sent once counts as saved).
    var isSaved: Bool
    /// Whether it is sent once, never saved (``EditDelivery/now``).
    var sendsOnce: Bool
  }

  /// Where the store stands with the sender lock of its directory.
  enum Sender: Equatable {
    /// Its backend is not shared: it needs no lock.
    case needsNoLock
    /// Another store may hold the lock: it must take it to send.
    case notHeld
    /// It holds the lock, and last looked at the folder at `lastLook` (``LoaderStore/now``);
    /// `now` is the store's time.
    case held(lastLook: Duration?, now: Duration)
  }

  /// What the lane does.
  enum Action: Equatable {
    /// Looks at the folder for what other stores wrote (``SenderLock/takeMarker()``), then
    /// decides again, having looked.
    case lookForWrites
    /// The lane ends.
    case end
    /// The edit waits for its handler: reported, and the lane ends.
    case endWithoutHandler
    /// Writes the edit's record; decides again once written, backs off when not.
    case save
    /// Offline: the edit sent once fails and leaves; the lane decides again.
    case dropOffline
    /// Waits for the network.
    case waitOnline
    /// Takes the sender lock (reading what it says to read, then deciding again, having
    /// looked), or waits ``Outbox/senderInterval`` when another store holds it.
    case takeLock
    /// Sends the edit.
    case send
  }

  /// The scope's first edit not failed; `nil` when none is left.
  var head: Head?
  var isOnline: Bool
  var sender: Sender
  /// Whether the folder was looked at in this step already (it is not looked at twice).
  var justLooked: Bool

  /// What the lane does next.
  ///
  /// - Parameter interval: How long the holder goes without looking at the folder.
  /// - Returns: The action.
  func next(interval: Duration) -> Action {
    guard let head else {
      if !justLooked, case .held = sender { return .lookForWrites }
      return .end
    }
    guard head.canSend else { return .endWithoutHandler }
    guard head.isSaved else { return .save }
    guard isOnline else { return head.sendsOnce ? .dropOffline : .waitOnline }
    switch sender {
    case .needsNoLock:
      return .send
    case .notHeld:
      return .takeLock
    case .held(let lastLook, let now):
      if justLooked { return .send }
      if let lastLook, now - lastLook < interval { return .send }
      return .lookForWrites
    }
  }
}
