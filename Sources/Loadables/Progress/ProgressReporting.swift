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
    guard let target = ProgressScope.current.get() else { return }
    if Thread.isMainThread {
      MainActor.assumeIsolated { target.deliver(progress) }
    } else {
      Task { @MainActor in target.deliver(progress) }
    }
  }
}

/// Where the running load's progress goes: bound as a task-local value around its block.
@usableFromInline
enum ProgressScope {
  @usableFromInline static let current = TaskLocal<(any ProgressTarget)?>(wrappedValue: nil)
}

/// A load that can receive progress.
@usableFromInline
protocol ProgressTarget: Sendable {
  @MainActor func deliver(_ progress: LoadingProgress)
}

/// The progress target of one load: its slot (held as the load holds it) and its token, so
/// reports from a superseded load are dropped.
@usableFromInline
struct SlotProgress<Reference: SlotReference>: ProgressTarget where Reference.Slot: LoadSlot {
  @usableFromInline let slot: Reference
  @usableFromInline let token: UInt64

  @inlinable init(_ slot: Reference, _ token: UInt64) {
    self.slot = slot
    self.token = token
  }

  @usableFromInline
  @MainActor func deliver(_ progress: LoadingProgress) {
    slot.value?.setProgress(progress, for: token)
  }
}
