#if canImport(os)
  public import os

  // The thin Apple half of the events' wiring: what to write is decided by LoadEventLogLine
  // and SignpostBook (tested on Linux); this file only calls os. Every message is written
  // out at its call, with its privacy spelled there, as os requires.

  extension LoadEvents {
    /// Writes every event from now on to `logger`, until the returned subscription is
    /// cancelled: one line to connect the stream to `os.Logger`.
    ///
    /// Each event is written at its ``LoadEventLevel`` (failures as `.error`, what went wrong
    /// and was dealt with as `.default`, what happened to the data as `.info`, the steps of a
    /// load as `.debug`), as one line such as
    /// `finished entry after 0.21 s (attempt 2): ["posts", 42]`. Keys, errors and details may
    /// hold user data, so by default they are written as private data: Xcode's console and a
    /// device under the debugger show them, logs collected elsewhere show `<private>`; see
    /// ``LoadEventLogPrivacy``.
    ///
    /// <!-- compile: context Platform -->
    /// ```swift
    /// let loadLog = LoadEvents.log(to: Logger(subsystem: "com.example.app", category: "loads"))
    /// ```
    ///
    /// Read them in Console or with
    /// `log stream --level debug --predicate 'subsystem == "com.example.app"'`.
    ///
    /// - Parameters:
    ///   - logger: Where to write.
    ///   - privacy: What the lines may show publicly; ``LoadEventLogPrivacy/private`` by
    ///     default.
    ///   - minimumLevel: The least level written; ``LoadEventLevel/debug`` (everything) by
    ///     default.
    /// - Returns: The subscription. The log runs until you call
    ///   ``LoadEventSubscription/cancel()`` or release it: keep it for as long as you log.
    public static func log(
      to logger: Logger,
      privacy: LoadEventLogPrivacy = .private,
      minimumLevel: LoadEventLevel = .debug
    ) -> LoadEventSubscription {
      listen { event in
        guard event.level >= minimumLevel else { return }
        let line = LoadEventLogLine(event, privacy: privacy)
        let level = Self.osLogType(line.level)
        if line.userData.isEmpty {
          logger.log(level: level, "\(line.text, privacy: .public)")
        } else {
          logger.log(
            level: level,
            "\(line.text, privacy: .public): \(line.userData, privacy: .private)")
        }
      }
    }

    /// Turns the events from now on into `OSSignposter` intervals and events, until the
    /// returned subscription is cancelled, so Instruments shows loads, fetches and waits on a
    /// timeline.
    ///
    /// A load is an interval named "Load" (a shared entry's fetch, "Fetch") from its start to
    /// its end, which the end's message names (finished, failed, superseded…); a wait inside
    /// it is a "Wait" interval; what the store and the edits do are single "Store" and "Edit"
    /// events. In Instruments, add the os_signpost instrument and look under your subsystem
    /// and category.
    ///
    /// <!-- compile: context Platform -->
    /// ```swift
    /// let loadSignposts = LoadEvents.signpost(
    ///   to: OSSignposter(subsystem: "com.example.app", category: "loads"))
    /// ```
    ///
    /// - Parameters:
    ///   - signposter: Where to write.
    ///   - privacy: What the messages may show publicly; ``LoadEventLogPrivacy/private`` by
    ///     default.
    /// - Returns: The subscription; keep it, and ``LoadEventSubscription/cancel()`` (or
    ///   release) it to stop. Intervals
    ///   still open then are left open.
    public static func signpost(
      to signposter: OSSignposter,
      privacy: LoadEventLogPrivacy = .private
    ) -> LoadEventSubscription {
      let runner = SignpostRunner(signposter: signposter, privacy: privacy)
      return listen { event in runner.receive(event) }
    }

    /// The `os` level for `level`.
    static func osLogType(_ level: LoadEventLevel) -> OSLogType {
      switch level {
      case .debug: .debug
      case .info: .info
      case .notice: .default
      case .error: .error
      }
    }
  }

  /// Performs a ``SignpostBook``'s steps on an `OSSignposter`, keeping each open
  /// interval's state by the pairing's id.
  @MainActor
  final class SignpostRunner {
    private let signposter: OSSignposter
    private var pairing: SignpostBook
    private var states: [UInt64: OSSignpostIntervalState] = [:]

    init(signposter: OSSignposter, privacy: LoadEventLogPrivacy) {
      self.signposter = signposter
      self.pairing = SignpostBook(privacy: privacy)
    }

    func receive(_ event: LoadEvent) {
      for step in pairing.receive(event) {
        switch step {
        case .begin(let interval, let line):
          states[interval.id] = begin(Self.name(interval.name), line)
        case .end(let interval, let line):
          guard let state = states.removeValue(forKey: interval.id) else { continue }
          end(Self.name(interval.name), state, line)
        case .event(let name, let line):
          emit(Self.name(name), line)
        }
      }
    }

    private func begin(_ name: StaticString, _ line: LoadEventLogLine) -> OSSignpostIntervalState {
      let id = signposter.makeSignpostID()
      if line.userData.isEmpty {
        return signposter.beginInterval(name, id: id, "\(line.text, privacy: .public)")
      }
      return signposter.beginInterval(
        name, id: id, "\(line.text, privacy: .public): \(line.userData, privacy: .private)")
    }

    private func end(
      _ name: StaticString, _ state: OSSignpostIntervalState, _ line: LoadEventLogLine
    ) {
      if line.userData.isEmpty {
        signposter.endInterval(name, state, "\(line.text, privacy: .public)")
      } else {
        signposter.endInterval(
          name, state, "\(line.text, privacy: .public): \(line.userData, privacy: .private)")
      }
    }

    private func emit(_ name: StaticString, _ line: LoadEventLogLine) {
      if line.userData.isEmpty {
        signposter.emitEvent(name, "\(line.text, privacy: .public)")
      } else {
        signposter.emitEvent(
          name, "\(line.text, privacy: .public): \(line.userData, privacy: .private)")
      }
    }

    private static func name(_ name: SignpostBook.Name) -> StaticString {
      switch name {
      case .load: "Load"
      case .fetch: "Fetch"
      case .wait: "Wait"
      case .store: "Store"
      case .edit: "Edit"
      }
    }
  }
#endif
