/// How far a load has got: a fraction done, a message, or both.
///
/// A load's block reports progress from any depth of its call tree with
/// ``report(fraction:message:)`` — no callback to thread through. The library shows it beside
/// the state (the state keeps its four cases), clears it when the load ends, and ignores
/// reports from a load that was superseded or cancelled.
///
/// ```swift
/// $files.load {
///   var files: [File] = []
///   for (index, name) in names.enumerated() {
///     files.append(try await api.download(name))
///     LoadingProgress.report(fraction: Double(index + 1) / Double(names.count), message: name)
///   }
///   return files
/// }
///
/// if let progress = $files.progress { ProgressView(value: progress.fraction ?? 0) }
/// ```
///
/// Progress reaches the loads that start after something — a view, an observer — first read
/// `progress`; a load whose progress nobody shows does not pay to deliver it.
public struct LoadingProgress: Sendable, Hashable {
  /// The fraction done, from 0 to 1; `nil` when unknown.
  public let fraction: Double?

  /// A message for the user, such as the item being loaded.
  public let message: String?

  /// Creates a progress value.
  ///
  /// - Parameters:
  ///   - fraction: The fraction done, in `0...1`, or `nil` when unknown.
  ///   - message: A message for the user.
  ///
  /// > Important: A fraction outside `0...1` (or not a number) stops the program with a
  /// > message naming it: it is a programming error, like an index out of range.
  public init(fraction: Double?, message: String? = nil) {
    if let fraction {
      precondition(
        (0...1).contains(fraction),
        "LoadingProgress: fraction must be in 0...1, got \(fraction)"
      )
    }
    self.fraction = fraction
    self.message = message
  }

  /// Creates a progress value from a percentage.
  ///
  /// - Parameters:
  ///   - percent: The percentage done, in `0...100`.
  ///   - message: A message for the user.
  ///
  /// > Important: A percentage outside `0...100` stops the program with a message naming
  /// > it.
  public init(percent: Double, message: String? = nil) {
    precondition(
      (0...100).contains(percent),
      "LoadingProgress: percent must be in 0...100, got \(percent)"
    )
    self.init(fraction: percent / 100, message: message)
  }

  /// The percentage done, from 0 to 100; `nil` when the fraction is unknown.
  public var percent: Double? { fraction.map { $0 * 100 } }
}
