import Foundation

extension LoadingProgress {
  /// Reports the progress of the load whose block is running, from any depth of its call
  /// tree and from its child tasks.
  ///
  /// Outside a load, in a load whose progress nobody had read when it started, or in a load
  /// that was superseded or cancelled, the report is ignored. Reports made on the main actor
  /// show at once; reports from other threads reach the state's observers on the main
  /// actor, in order.
  ///
  /// A fraction outside `0...1` is clamped into it, and one that is not a number counts as
  /// `0`, as in ``LoadingProgress/init(fraction:message:)``: a fraction computed from byte counts that lands
  /// at `1.000001` shows as done and never stops the program.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// for try await chunk in download {
  ///   received += chunk.count
  ///   LoadingProgress.report(fraction: Double(received) / Double(expected), message: name)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - fraction: The fraction done, or `nil` when unknown; clamped into `0...1`, with
  ///     `nan` read as `0`.
  ///   - message: A message for the user.
  public static func report(fraction: Double?, message: String? = nil) {
    report(LoadingProgress(fraction: fraction, message: message))
  }

  /// Reports the progress of the load whose block is running; see
  /// ``report(fraction:message:)``.
  ///
  /// `progress` is already in range: its initialisers clamp the fraction into `0...1` and
  /// the percentage into `0...100`.
  ///
  /// - Parameter progress: The progress to show.
  public static func report(_ progress: LoadingProgress) {
    guard let target = LoadScope.current.get() else { return }
    if Thread.isMainThread {
      MainActor.assumeIsolated { target.deliver(progress) }
    } else {
      Task { @MainActor in target.deliver(progress) }
    }
  }
}
