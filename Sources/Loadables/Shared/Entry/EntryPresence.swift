/// Keeps a shared entry observed, and loads it, while a screen shows it: the logic behind the
/// SwiftUI `following(_:)` modifier, usable from any screen that has appear and disappear
/// events (a UIKit view controller, a test).
///
/// ```swift
/// let presence = EntryPresence()
/// // viewWillAppear:
/// presence.appeared(store.loader(for: ["posts", id]) { try await api.post(id) })
/// // viewDidDisappear:
/// presence.disappeared()
/// ```
///
/// | event | what happens |
/// |---|---|
/// | ``appeared(_:loads:silently:)`` | takes an observation of the entry (so it refreshes when invalidated and runs its triggers) and starts its load, which fetches only when the value is missing or stale |
/// | appeared again with the same entry | nothing: one observation, one load |
/// | appeared with another entry, or ``changed(to:loads:silently:)`` while shown | ends the observation of the first, then follows the second |
/// | ``disappeared()`` | ends the observation and the wait of its load; a fetch it started goes on for the entry's other observers, as a cancelled ``SharedEntry/load(silently:)`` caller's does |
/// | disappeared twice, or before appearing | nothing |
/// | the presence is released | its observation ends (the token's own release ends it) |
///
/// It never holds the entry beyond its observation token: the entry stays its store's, and
/// is dropped after the store's grace time once nobody shows it.
@MainActor
public final class EntryPresence {
  private var observation: SharedObservation?
  private var loading: Task<Void, Never>?
  private var shown: ObjectIdentifier?

  /// Creates a presence that shows nothing yet.
  public init() {}

  /// Whether an entry is shown now: between ``appeared(_:loads:silently:)`` and
  /// ``disappeared()``.
  public var isShown: Bool { shown != nil }

  /// The screen showing `entry` appeared: observe it, and load it unless `loads` is `false`.
  ///
  /// - Parameters:
  ///   - entry: The shared entry the screen shows.
  ///   - loads: Whether to start the entry's load (``SharedEntry/load(silently:)``): a fresh
  ///     value fetches nothing, a stale one refreshes silently. `true` by default.
  ///   - silently: When `true`, the load does not write the started state (`.loading`).
  /// - Returns: The task waiting for the load, when one was started; cancelling it ends the
  ///   wait only.
  @discardableResult
  public func appeared<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, loads: Bool = true, silently: Bool = false
  ) -> Task<Void, Never>? {
    let id = ObjectIdentifier(entry)
    guard shown != id else { return nil }
    disappeared()
    shown = id
    observation = entry.observe()
    guard loads else { return nil }
    let task = Task { _ = await entry.load(silently: silently) }
    loading = task
    return task
  }

  /// The screen, still shown, now shows `entry` (its view was given another one): follows it
  /// instead, as ``appeared(_:loads:silently:)`` does. Does nothing while the screen is not
  /// shown: the next appear follows whatever entry it shows then.
  ///
  /// - Parameters:
  ///   - entry: The shared entry the screen shows now.
  ///   - loads: Whether to start the entry's load; `true` by default.
  ///   - silently: When `true`, the load does not write the started state (`.loading`).
  /// - Returns: The task waiting for the load, when one was started.
  @discardableResult
  public func changed<Value: Sendable, State: SharedEntryState & Sendable>(
    to entry: SharedEntry<Value, State>, loads: Bool = true, silently: Bool = false
  ) -> Task<Void, Never>? {
    guard isShown else { return nil }
    return appeared(entry, loads: loads, silently: silently)
  }

  /// The screen disappeared: the entry is no longer observed by it, and its load's wait ends.
  public func disappeared() {
    shown = nil
    observation?.end()
    observation = nil
    loading?.cancel()
    loading = nil
  }
}
