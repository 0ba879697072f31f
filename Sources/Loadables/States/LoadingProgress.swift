/// How far a load has got: a fraction done, a message, or both.
///
/// A load's block reports progress from any depth of its call tree with
/// ``report(fraction:message:)`` — no callback to thread through. The library shows it beside
/// the state (the state keeps its four cases), clears it when the load ends, and ignores
/// reports from a load that was superseded or cancelled.
///
/// <!-- compile: context Model -->
/// ```swift
/// $files.load {
///   var files: [File] = []
///   for (index, name) in names.enumerated() {
///     files.append(try await api.download(name))
///     LoadingProgress.report(fraction: Double(index + 1) / Double(names.count), message: name)
///   }
///   return files
/// }
/// ```
///
/// and in the view:
///
/// <!-- compile: context ModelView -->
/// ```swift
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

  /// Creates a progress value; a fraction outside `0...1` is clamped into it.
  ///
  /// A fraction computed from byte counts or floating-point sums can land just outside
  /// `0...1` (`1.000001`, `-0.000001`), or be not a number when a total is zero (`0 / 0`).
  /// Progress is only shown, so it never stops the program: the fraction is clamped into
  /// `0...1`, and a value that is not a number counts as no progress.
  ///
  /// | fraction | stored |
  /// |---|---|
  /// | `1.000001`, `+infinity` | `1` |
  /// | `-0.1`, `-infinity`, `nan` | `0` |
  /// | `nil` | `nil` (unknown) |
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// let progress = LoadingProgress(fraction: Double(received) / Double(expected))
  /// ```
  ///
  /// - Parameters:
  ///   - fraction: The fraction done, or `nil` when unknown; clamped into `0...1`, with
  ///     `nan` read as `0`.
  ///   - message: A message for the user.
  public init(fraction: Double?, message: String? = nil) {
    self.fraction = fraction.map(Self.clamped)
    self.message = message
  }

  /// Creates a progress value from a percentage; a percentage outside `0...100` is clamped
  /// into it.
  ///
  /// As with ``init(fraction:message:)``, progress never stops the program: the percentage
  /// is clamped into `0...100` (`100.2` and `+infinity` become `100`; `-5`, `-infinity` and
  /// `nan` become `0`), then stored as a fraction.
  ///
  /// - Parameters:
  ///   - percent: The percentage done; clamped into `0...100`, with `nan` read as `0`.
  ///   - message: A message for the user.
  public init(percent: Double, message: String? = nil) {
    self.init(fraction: Self.clamped(percent / 100), message: message)
  }

  /// The percentage done, from 0 to 100; `nil` when the fraction is unknown.
  public var percent: Double? { fraction.map { $0 * 100 } }

  /// `fraction` clamped into `0...1`; not a number is 0. (`Swift.min`/`max` would keep a
  /// `nan`, so it is tested first.)
  private static func clamped(_ fraction: Double) -> Double {
    if fraction.isNaN { return 0 }
    return Swift.min(Swift.max(fraction, 0), 1)
  }
}
