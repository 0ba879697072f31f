public import Observation

/// Whether the device can reach the network now, as a source reports it: what loads that
/// wait for the network, the outbox and polling consult.
///
/// Make one for the app and hand it to the ``LoaderStore`` (and to any policy that waits for
/// the network). Where it learns the truth is up to its source:
///
/// - on Apple platforms, ``system`` follows `NWPathMonitor`;
/// - in tests, `ManualConnectivity` in LoadablesTesting switches it by hand;
/// - an app with its own reachability code calls ``update(isOnline:)`` whenever it changes.
///
/// ```swift
/// let connectivity = Connectivity(isOnline: false)
/// reachability.onChange = { online in connectivity.update(isOnline: online) }
/// ```
///
/// Observable: a view that reads ``isOnline`` re-renders when it changes.
@MainActor
public final class Connectivity {
  private let registrar = ObservationRegistrar()
  private var online: Bool
  /// The tasks waiting in ``untilOnline()``, by id, resumed when the source says online.
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiterID = 0

  /// Creates a source that reports `isOnline` until told otherwise.
  ///
  /// - Parameter isOnline: Whether the network is reachable now; `true` by default.
  public init(isOnline: Bool = true) {
    online = isOnline
  }

  /// Whether the network is reachable now. Observable.
  public var isOnline: Bool {
    registrar.access(self, keyPath: \.isOnline)
    return online
  }

  /// How many tasks are waiting in ``untilOnline()`` now.
  public var waitingCount: Int { waiters.count }

  /// Records what the source says now; going online resumes every task waiting in
  /// ``untilOnline()``, in the order they began to wait.
  ///
  /// - Parameter isOnline: Whether the network is reachable.
  public func update(isOnline: Bool) {
    guard online != isOnline else { return }
    registrar.withMutation(of: self, keyPath: \.isOnline) { online = isOnline }
    guard isOnline else { return }
    let resumed = waiters.sorted { $0.key < $1.key }.map(\.value)
    waiters = [:]
    for waiter in resumed { waiter.resume() }
  }

  /// Returns once the source says online: at once when it already does, or when the
  /// calling task is cancelled (check `Task.isCancelled` after).
  public func untilOnline() async {
    guard !online else { return }
    nextWaiterID += 1
    let id = nextWaiterID
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if online || Task.isCancelled {
          continuation.resume()
        } else {
          waiters[id] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.resumeWaiter(id) }
    }
  }

  private func resumeWaiter(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume()
  }
}

extension Connectivity: Observable {}
