/// What makes a shared entry refresh on its own while someone observes it: a polling
/// interval, or any sequence of signals (the app returning to the foreground, the network
/// coming back).
///
/// <!-- compile: context Shared -->
/// ```swift
/// let feed = store.loader(
///   for: ["feed"], refreshing: [.every(.seconds(30)), .signals { appBecameActive() }]
/// ) { try await api.feed() }
/// ```
///
/// A trigger runs only while its entry is observed (see ``SharedEntry/observe()``); it
/// stops when the last observer goes and starts again with the next one. Each refresh is
/// silent — the value stays on screen — and is skipped while a fetch already runs.
public struct RefreshTrigger: Sendable {
  /// What makes the trigger fire.
  enum Source: Sendable {
    /// A task that runs while the entry is observed, until it is cancelled, calling
    /// `refresh` whenever the entry should refresh.
    case task(
      @MainActor @Sendable (
        _ clock: any Clock<Duration>, _ refresh: @escaping @MainActor () -> Void
      ) async -> Void)
    /// The store's network truth (``LoaderStore/connectivity``) coming back online: an
    /// action registered with it while the entry is observed, and no task.
    case reconnection
  }

  let source: Source

  /// Whether a refresh is skipped while the store's ``Connectivity`` says offline: polling's.
  var skipsWhileOffline = false

  /// What the trigger is, in words, for the events it causes: "every 30 seconds".
  var name = "signals"

  /// A trigger whose task `run` runs while the entry is observed.
  init(
    run:
      @escaping @MainActor @Sendable (
        _ clock: any Clock<Duration>, _ refresh: @escaping @MainActor () -> Void
      ) async -> Void,
    skipsWhileOffline: Bool = false, name: String = "signals"
  ) {
    self.source = .task(run)
    self.skipsWhileOffline = skipsWhileOffline
    self.name = name
  }

  init(source: Source, name: String) {
    self.source = source
    self.name = name
  }

  /// Starts the trigger for an entry that became observed: its task, or its action on
  /// `network`.
  ///
  /// - Parameters:
  ///   - clock: The store's clock.
  ///   - network: The store's network truth.
  ///   - refresh: Refreshes the entry; returns `false` once the entry is gone.
  /// - Returns: What ``RunningTrigger/stop()`` ends when observation ends.
  @MainActor
  func start(
    clock: any Clock<Duration>, network: Connectivity,
    refresh: @escaping @MainActor () -> Bool
  ) -> RunningTrigger {
    switch source {
    case .task(let run):
      .task(Task { @MainActor in await run(clock) { _ = refresh() } })
    case .reconnection:
      .action(network, network.addReconnectAction(refresh))
    }
  }

  /// Refreshes every `interval` on the store's clock while the entry is observed.
  ///
  /// The first refresh comes one `interval` after observation starts: one sleeper on the
  /// clock at a time. While the store's ``Connectivity`` says offline, each tick refreshes
  /// nothing (the clock goes on ticking); the first tick after the connection returns
  /// refreshes.
  ///
  /// - Parameter interval: The time between refreshes; more than zero.
  /// - Returns: A polling trigger.
  ///
  /// > Important: An `interval` of zero or less stops the program with a message naming it.
  public static func every(_ interval: Duration) -> RefreshTrigger {
    precondition(
      interval > .zero, "RefreshTrigger.every: interval must be more than zero, got \(interval)")
    return RefreshTrigger(
      run: { clock, refresh in
        while !Task.isCancelled {
          do { try await clock.sleep(for: interval) } catch { return }
          refresh()
        }
      }, skipsWhileOffline: true, name: "every \(interval)")
  }

  /// Refreshes whenever `signals` delivers an element, while the entry is observed.
  ///
  /// `makeSignals` is called each time observation starts, so a sequence that can be
  /// iterated only once (an `AsyncStream`) is made anew for each period of observation.
  /// In tests, hand it a sequence you control.
  ///
  /// - Parameter makeSignals: Makes the sequence to listen to.
  /// - Returns: A trigger that refreshes on every signal.
  public static func signals<Signals: AsyncSequence>(
    _ makeSignals: @escaping @MainActor @Sendable () -> Signals
  ) -> RefreshTrigger {
    RefreshTrigger { _, refresh in
      await listen(to: makeSignals(), refresh)
    }
  }

  /// Iterates `signals` off the main actor and refreshes, on the main actor, for each
  /// element, until the sequence ends or throws or the task is cancelled.
  ///
  /// Iterating here, not in the main-actor closure, needs no `next(isolation:)`, which the
  /// package's OS floors (iOS 17, macOS 14) do not have; the elements never cross to the
  /// main actor.
  private nonisolated static func listen<Signals: AsyncSequence>(
    to signals: sending Signals, _ refresh: @escaping @MainActor () -> Void
  ) async {
    do {
      for try await _ in signals {
        guard !Task.isCancelled else { return }
        await refresh()
      }
    } catch {
      return
    }
  }
}

/// A refresh trigger at work for an observed entry.
@MainActor
enum RunningTrigger {
  /// The trigger's task.
  case task(Task<Void, Never>)
  /// The trigger's reconnect action, by id, on the network it listens to.
  case action(Connectivity, Int)

  /// Stops it: cancels the task, or removes the action.
  func stop() {
    switch self {
    case .task(let task): task.cancel()
    case .action(let network, let id): network.removeReconnectAction(id)
    }
  }
}
