import Foundation

/// What a loading screen shows for a state: nothing, a spinner, an error with a retry
/// button, or the content — decided without SwiftUI.
///
/// A view that shows a ``LoadableState`` makes the same decisions every time: a spinner while
/// there is nothing to show yet, the content kept on screen during a silent refresh, a retry
/// button only when retrying is possible and nothing is already running, and an accessibility
/// label and value for the error. `LoadingPresentation` makes them in one plain value, so
/// they are tested on every platform and a view only maps ``phase`` to views.
///
/// <!-- compile: context LoadingPresentations -->
/// ```swift
/// let presentation = LoadingPresentation(
///   state: books, isRunning: $books.isRunning, progress: $books.progress, canRetry: true)
/// switch presentation.phase {
/// case .empty: EmptyView()
/// case .loading: ProgressView(value: presentation.progress?.fraction)
/// case .failure(let failure): ErrorView(failure, retry: failure.showsRetryButton ? reload : nil)
/// case .content(let books): BookList(books).overlay { if presentation.isRefreshing { ProgressView() } }
/// }
/// ```
///
/// | state | not running | running (a load is in flight) |
/// |---|---|---|
/// | `.absent` | ``Phase/empty`` | ``Phase/loading`` (a silent first load has nothing to keep) |
/// | `.loading` | ``Phase/loading`` | ``Phase/loading`` |
/// | `.error` | ``Phase/failure(_:)`` with a retry button if `canRetry` | ``Phase/failure(_:)``, no retry button, ``isRefreshing`` |
/// | `.loaded` | ``Phase/content(_:)`` | ``Phase/content(_:)`` kept on screen, ``isRefreshing`` |
///
/// ### Waiting for the network
///
/// A load with ``LoadPolicy/waitsForNetwork(_:)-type.method`` (or a shared entry of a
/// ``LoaderStore`` made with a connectivity) waits while offline instead of failing. Pass the
/// form's `isWaitingForNetwork` and ``isWaitingForNetwork`` says so. Waiting is a way of
/// running, not a phase of its own: it never changes ``phase`` or ``isRefreshing``, so a
/// silent refresh that waits keeps the content (or the error) on screen, and only what the
/// progress says changes.
///
/// | state, while a load runs and waits | shows |
/// |---|---|
/// | `.absent`, `.loading` | ``Phase/loading``, ``isWaitingForNetwork``: say "Waiting for the network" instead of a bare spinner (``progressText`` does) |
/// | `.error` | ``Phase/failure(_:)``, no retry button, ``isRefreshing``, ``isWaitingForNetwork`` |
/// | `.loaded` | ``Phase/content(_:)`` kept on screen, ``isRefreshing``, ``isWaitingForNetwork``: a small "offline" badge beside it |
///
/// <!-- compile: context LoadingPresentations -->
/// ```swift
/// let presentation = LoadingPresentation(
///   state: feed, isRunning: $feed.isRunning, isWaitingForNetwork: $feed.isWaitingForNetwork,
///   canRetry: true)
/// if let text = presentation.waitingText { Label(text, systemImage: "wifi.slash") }
/// ```
///
/// For data a store keeps, with only the request's ``ProcessState`` in the view, use
/// ``init(items:phase:isRunning:progress:attempt:isWaitingForNetwork:canRetry:failureLabel:)``.
public struct LoadingPresentation<Value> {
  /// What the screen shows.
  public enum Phase {
    /// Nothing to show and nothing running: nothing has been requested yet, or (for items a
    /// store keeps) the last request found none. Show the empty view.
    case empty

    /// A load is running and there is nothing to keep on screen: show the progress view.
    case loading

    /// The last load failed: show the error view.
    case failure(FailurePresentation)

    /// Show the loaded value.
    case content(Value)
  }

  /// What the screen shows.
  public let phase: Phase

  /// Whether a load runs while the phase keeps something on screen — the content or the
  /// error — as during a silent refresh. Show a small indicator beside it. A refresh that
  /// waits for the network is still refreshing (see ``isWaitingForNetwork``).
  public let isRefreshing: Bool

  /// Whether the running load waits for the network instead of failing while offline; always
  /// `false` when no load runs.
  ///
  /// It never changes ``phase``: over content or an error (``isRefreshing``) show a small
  /// badge, over ``Phase/loading`` say so instead of showing a bare spinner. ``waitingText``
  /// and ``progressText`` carry the words.
  public let isWaitingForNetwork: Bool

  /// The progress to show: the reported progress while a load runs, `nil` otherwise.
  public let progress: LoadingProgress?

  /// The attempt a retry policy is running or waiting to run, while a load runs; `nil`
  /// otherwise.
  public let attempt: RetryAttempt?

  /// Whether a screen that loads when it appears should start a load now: it has a way to
  /// load, none is running, and nothing is loaded — nothing was requested, a load was cancelled
  /// before it finished (the view went away), or the last one failed.
  ///
  /// A screen that appears again over loaded content does not load again, so navigating back
  /// never reloads what is on screen; a pull to refresh does that.
  public let shouldLoadOnAppear: Bool

  /// What a progress view says: the progress message (or, while the load waits for the
  /// network, ``waitingText`` in its place) and, for a second or later attempt, which attempt
  /// runs (`attempt 2 of 3`); `nil` when there is nothing to say.
  ///
  /// `Waiting for the network, attempt 2 of 3` while a retried load waits for the network.
  public var progressText: String? {
    let retry = attempt.flatMap { $0.isRetry ? $0.description : nil }
    let parts = [waitingText ?? progress?.message, retry].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// What a badge or a progress view says while the load waits for the network:
  /// `Waiting for the network`; `nil` while it does not wait.
  ///
  /// <!-- compile: context LoadingPresentations -->
  /// ```swift
  /// if let text = presentation.waitingText { Label(text, systemImage: "wifi.slash") }
  /// ```
  public var waitingText: String? {
    isWaitingForNetwork ? "Waiting for the network" : nil
  }

  /// Decides what to show for a state.
  ///
  /// - Parameters:
  ///   - state: The state to show.
  ///   - isRunning: Whether a load is in flight, silent or not (the wrapper's or protocol's
  ///     `isRunning`).
  ///   - progress: The progress reported by the running load, if any.
  ///   - attempt: The retry attempt of the running load, if any.
  ///   - isWaitingForNetwork: Whether the running load waits for the network (the wrapper's,
  ///     protocol's or loader's `isWaitingForNetwork`); ignored when nothing runs.
  ///   - canRetry: Whether the screen has a way to start the load again; without one the error
  ///     view shows no retry button and nothing loads on appear.
  ///   - failureLabel: The accessibility label of the error view.
  public init(
    state: LoadableState<Value>,
    isRunning: Bool,
    progress: LoadingProgress? = nil,
    attempt: RetryAttempt? = nil,
    isWaitingForNetwork: Bool = false,
    canRetry: Bool,
    failureLabel: String = FailurePresentation.defaultAccessibilityLabel
  ) {
    let shown: (phase: Phase, isRefreshing: Bool)
    switch state {
    case .absent:
      shown = (isRunning ? .loading : .empty, false)
    case .loading:
      shown = (.loading, false)
    case .error(let error):
      shown = (.failure(error, canRetry, isRunning, failureLabel), isRunning)
    case .loaded(let value):
      shown = (.content(value), isRunning)
    }
    self.init(
      shown, isRunning: isRunning, progress: progress, attempt: attempt,
      isWaitingForNetwork: isWaitingForNetwork,
      shouldLoadOnAppear: canRetry && !isRunning && !state.isLoaded)
  }

  /// What every initialiser shares: progress, attempt and the wait for the network show only
  /// while a load runs, and the wait never changes the phase.
  private init(
    _ shown: (phase: Phase, isRefreshing: Bool),
    isRunning: Bool,
    progress: LoadingProgress?,
    attempt: RetryAttempt?,
    isWaitingForNetwork: Bool,
    shouldLoadOnAppear: Bool
  ) {
    self.phase = shown.phase
    self.isRefreshing = shown.isRefreshing
    self.progress = isRunning ? progress : nil
    self.attempt = isRunning ? attempt : nil
    self.isWaitingForNetwork = isRunning && isWaitingForNetwork
    self.shouldLoadOnAppear = shouldLoadOnAppear
  }
}

extension LoadingPresentation where Value: Collection {
  /// Decides what to show for items a store keeps, while the view tracks only the request:
  /// the data-in-the-store pattern.
  ///
  /// The store owns the items; the view owns a `@Process` whose ``ProcessState`` is the phase of
  /// the request. The items decide what is on screen, so a refresh never blanks them:
  ///
  /// | phase | items | no items |
  /// |---|---|---|
  /// | `.idle`, `.finished` | ``Phase/content(_:)`` | ``Phase/empty``: nothing requested, or the request found none |
  /// | `.running`, or a silent job runs | ``Phase/content(_:)``, ``isRefreshing`` while a job runs | ``Phase/loading`` |
  /// | `.failed` | ``Phase/content(_:)`` (report the error with `onProcessFailed`) | ``Phase/failure(_:)``, a retry button if `canRetry` and nothing runs |
  ///
  /// A cancelled request never fails (the engine writes nothing for it), so a pull to refresh
  /// that the user abandons, or a `.task` that ends when the view goes away, shows no error.
  ///
  /// <!-- compile: context StoreBackedItems -->
  /// ```swift
  /// let presentation = LoadingPresentation(
  ///   items: store.books, phase: loading, isRunning: $loading.isRunning, canRetry: true)
  /// ```
  ///
  /// - Parameters:
  ///   - items: The items the store holds now.
  ///   - phase: The state of the request, such as a `@Process` property.
  ///   - isRunning: Whether a job is in flight, silent or not (the wrapper's `isRunning`).
  ///   - progress: The progress reported by the running job, if any.
  ///   - attempt: The retry attempt of the running job, if any.
  ///   - isWaitingForNetwork: Whether the running job waits for the network (the wrapper's
  ///     `isWaitingForNetwork`); ignored when nothing runs. The items stay on screen while it
  ///     waits.
  ///   - canRetry: Whether the screen has a way to run the request again.
  ///   - failureLabel: The accessibility label of the error view.
  public init<ProcessKind>(
    items: Value,
    phase: ProcessState<ProcessKind>,
    isRunning: Bool,
    progress: LoadingProgress? = nil,
    attempt: RetryAttempt? = nil,
    isWaitingForNetwork: Bool = false,
    canRetry: Bool,
    failureLabel: String = FailurePresentation.defaultAccessibilityLabel
  ) {
    let shown: (phase: Phase, isRefreshing: Bool)
    if !items.isEmpty {
      shown = (.content(items), isRunning)
    } else {
      switch phase {
      case .failed(_, let error):
        shown = (.failure(error, canRetry, isRunning, failureLabel), isRunning)
      case .running:
        shown = (.loading, false)
      case .idle, .finished:
        shown = (isRunning ? .loading : .empty, false)
      }
    }
    self.init(
      shown, isRunning: isRunning, progress: progress, attempt: attempt,
      isWaitingForNetwork: isWaitingForNetwork,
      shouldLoadOnAppear: canRetry && !isRunning && !phase.hasFinished)
  }
}

extension LoadingPresentation.Phase {
  /// The error view for `error`: a retry button when the screen can retry and nothing runs.
  fileprivate static func failure(
    _ error: any Error, _ canRetry: Bool, _ isRunning: Bool, _ label: String
  ) -> Self {
    .failure(
      FailurePresentation(
        error: error, showsRetryButton: canRetry && !isRunning, accessibilityLabel: label))
  }
}

extension LoadingPresentation: Sendable where Value: Sendable {}
extension LoadingPresentation.Phase: Sendable where Value: Sendable {}

/// How a loading screen shows an error: the message, whether to offer a retry button, and
/// what assistive technologies read.
///
/// You get one from ``LoadingPresentation/Phase/failure(_:)``.
///
/// <!-- compile: context LoadingPresentations -->
/// ```swift
/// VStack {
///   Text(failure.message)
///   if failure.showsRetryButton { Button("Try Again", action: retry) }
/// }
/// .accessibilityElement(children: .combine)
/// .accessibilityLabel(failure.accessibilityLabel)
/// .accessibilityValue(failure.accessibilityValue)
/// ```
public struct FailurePresentation: Sendable {
  /// The accessibility label an error view gets unless the screen provides its own.
  public static let defaultAccessibilityLabel = "Loading failed"

  /// The title of the default error view's retry button.
  public static let retryButtonTitle = "Try Again"

  /// The error the load failed with.
  public let error: any Error

  /// The message to show: the error's `localizedDescription` (a `LocalizedError`'s
  /// `errorDescription`).
  public let message: String

  /// Whether to show a retry button: the screen can retry and no load is running.
  public let showsRetryButton: Bool

  /// The accessibility label of the error view: what it is.
  public let accessibilityLabel: String

  /// The accessibility value of the error view: what went wrong, the ``message``.
  public var accessibilityValue: String { message }

  /// Describes how to show an error.
  ///
  /// - Parameters:
  ///   - error: The error the load failed with.
  ///   - showsRetryButton: Whether to offer a retry button.
  ///   - accessibilityLabel: The accessibility label of the error view.
  public init(
    error: any Error,
    showsRetryButton: Bool,
    accessibilityLabel: String = FailurePresentation.defaultAccessibilityLabel
  ) {
    self.error = error
    self.message = error.localizedDescription
    self.showsRetryButton = showsRetryButton
    self.accessibilityLabel = accessibilityLabel
  }
}
