extension LoaderStore {
  /// Drops every entry nobody observes (see ``trim()``) whenever `signals` delivers an
  /// element, until `signals` ends or throws, or the calling task is cancelled.
  ///
  /// The store's answer to memory pressure, for any source of warnings: on iOS, iPadOS,
  /// tvOS, visionOS and Mac Catalyst `trimOnMemoryWarnings()` is this with UIKit's
  /// memory warning; elsewhere hand it a sequence of your own, and in tests one you
  /// control. Run it for as long as the store should listen — in a task of its own, or in
  /// the `.task` of the app's root view:
  ///
  /// ```swift
  /// let (warnings, warn) = AsyncStream.makeStream(of: Void.self)
  /// let listening = Task { await store.trim(whenever: warnings) }
  /// warn.yield()  // the unobserved entries leave the store
  /// listening.cancel()
  /// ```
  ///
  /// It keeps the store alive while it runs. The sequence is iterated off the main actor
  /// (its elements are ignored and never cross to it); each trim runs on the main actor.
  ///
  /// - Parameter signals: The warnings.
  public nonisolated func trim<Signals: AsyncSequence>(whenever signals: Signals) async {
    do {
      for try await _ in signals {
        guard !Task.isCancelled else { return }
        await trim()
      }
    } catch {
      return
    }
  }
}
