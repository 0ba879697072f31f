import Foundation
public import Observation

/// Whether the device can reach the network now, as a source reports it: the one network
/// truth that loads waiting for the network, the outbox, polling,
/// ``RefreshTrigger/networkReconnected`` and an inspector's simulated offline
/// (``LoaderStore/isSimulatingOffline``) all follow.
///
/// Make one for the app and hand it to the ``LoaderStore`` (and to any policy that waits for
/// the network). Where it learns the truth is up to its source:
///
/// - on Apple platforms, ``system`` follows `NWPathMonitor`;
/// - in tests, `Connectivity(isOnline:)` and the helpers of LoadablesTesting
///   (`goOffline()`, `goOnline()`, `waiters(count:)`) switch it by hand;
/// - an app with its own reachability code calls ``update(isOnline:)`` whenever it changes.
///
/// <!-- compile: context Model -->
/// ```swift
/// let connectivity = Connectivity(isOnline: false)
/// reachability.onChange = { online in connectivity.update(isOnline: online) }
/// let store = LoaderStore(connectivity: connectivity)
/// ```
///
/// Observable: a view that reads ``isOnline`` re-renders when it changes.
@MainActor
public final class Connectivity {
  private let registrar = ObservationRegistrar()
  @usableFromInline var online: Bool
  /// The tasks waiting in ``untilOnline()``. Behind a lock, so that cancelling a waiting
  /// task resumes it at once, from whatever thread cancels it.
  private let waiters = WakeList()
  /// What feeds this source (the path monitor of ``system``), kept alive with it.
  var source: AnyObject?
  /// What the source last reported: ``online`` is this unless ``isForcedOffline``.
  private var reported: Bool
  /// Whether an inspector pretends the network is gone
  /// (``LoaderStore/isSimulatingOffline``): the source reads offline whatever it reports,
  /// and turning it off brings back what it last reported. The one place simulated offline
  /// is kept: every wait, trigger and inspector that follows this source sees it.
  var isForcedOffline = false {
    didSet { apply(reported && !isForcedOffline) }
  }
  /// What runs each time the source comes back online: the reconnect triggers of the
  /// observed entries (``RefreshTrigger/networkReconnected``), by id, in the order they began
  /// to listen. An action returns `false` once its entry is gone, and is then removed.
  private var reconnectActions: [Int: @MainActor () -> Bool] = [:]
  private var nextActionID = 0

  /// Creates a source that reports `isOnline` until told otherwise.
  ///
  /// ```swift
  /// let connectivity = Connectivity(isOnline: false)  // offline until `update(isOnline: true)`
  /// ```
  ///
  /// - Parameter isOnline: Whether the network is reachable now; `true` by default.
  public init(isOnline: Bool = true) {
    online = isOnline
    reported = isOnline
  }

  /// Whether the network is reachable now. Observable.
  public var isOnline: Bool {
    registrar.access(self, keyPath: \.isOnline)
    return online
  }

  /// Whether the network is reachable now, read without registering an observer. Inlinable:
  /// a load that waits for the network reads it before each attempt.
  @inlinable var isOnlineNow: Bool { online }

  /// How many tasks are waiting in ``untilOnline()`` now: a load waiting for the network
  /// counts one.
  public var waitingCount: Int { waiters.count }

  /// Records what the source says now; going online resumes every task waiting in
  /// ``untilOnline()``, in the order they began to wait.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// connectivity.update(isOnline: false)  // loads that wait for the network now wait
  /// connectivity.update(isOnline: true)   // and resume
  /// ```
  ///
  /// - Parameter isOnline: Whether the network is reachable.
  public func update(isOnline: Bool) {
    reported = isOnline
    apply(isOnline && !isForcedOffline)
  }

  /// Shows `isOnline`: tells observers, and going online resumes the waiting tasks, then
  /// runs the reconnect actions.
  private func apply(_ isOnline: Bool) {
    guard online != isOnline else { return }
    registrar.withMutation(of: self, keyPath: \.isOnline) { online = isOnline }
    guard isOnline else { return }
    waiters.resumeAll()
    if !reconnectActions.isEmpty { reconnected() }
  }

  /// Runs each reconnect action registered now, in order. An action may add or remove
  /// actions (a refresh may make room in its store, which stops another entry's triggers):
  /// one removed before its turn is not run.
  private func reconnected() {
    for id in reconnectActions.keys.sorted() {
      guard let action = reconnectActions[id] else { continue }
      if !action() { reconnectActions[id] = nil }
    }
  }

  /// Runs `action` each time the source comes back online (a change from offline to online,
  /// never the state it is in now), until ``removeReconnectAction(_:)``: how
  /// ``RefreshTrigger/networkReconnected`` follows this source, one listener per observed
  /// entry and no monitor of its own.
  ///
  /// - Parameter action: Runs on the main actor, after the waiting tasks were resumed;
  ///   returns `false` when it has nothing left to do, to be removed.
  /// - Returns: The id to remove it with.
  func addReconnectAction(_ action: @escaping @MainActor () -> Bool) -> Int {
    nextActionID += 1
    reconnectActions[nextActionID] = action
    return nextActionID
  }

  /// Stops running the reconnect action `id`; nothing happens if it is gone.
  func removeReconnectAction(_ id: Int) {
    reconnectActions[id] = nil
  }

  /// How many reconnect actions listen now: one per observed entry with a
  /// ``RefreshTrigger/networkReconnected`` trigger (a test seam).
  var reconnectActionCount: Int { reconnectActions.count }

  /// Returns once the source says online: at once when it already does, or as soon as the
  /// calling task is cancelled (check `Task.isCancelled` after).
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// await connectivity.untilOnline()
  /// guard !Task.isCancelled else { return }
  /// try await outbox.sendNext()
  /// ```
  public func untilOnline() async {
    // On the main actor, like `update(isOnline:)`, which resumes the waiters.
    await waiters.wait(until: { online })
  }
}

extension Connectivity: Observable {}
