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
  /// - Parameters:
  ///   - fraction: The fraction done, in `0...1`, or `nil` when unknown.
  ///   - message: A message for the user.
  public static func report(fraction: Double?, message: String? = nil) {
    report(LoadingProgress(fraction: fraction, message: message))
  }

  /// Reports the progress of the load whose block is running; see
  /// ``report(fraction:message:)``.
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
