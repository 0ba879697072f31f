#if canImport(SwiftUI)
  public import SwiftUI

  /// Runs an action when the watched failure changes to a new one. The decision is
  /// ``FailureTransition``'s; this only hands SwiftUI the value to compare between renders.
  ///
  /// The conformance is declared in an extension so that the struct itself is not isolated:
  /// the `nonisolated` modifiers below can create it, and only `body` runs on the main actor.
  struct FailureWatcher<Failure: Equatable> {
    let failure: Failure?
    let action: (Failure) -> Void
  }

  extension FailureWatcher: ViewModifier {
    func body(content: Content) -> some View {
      content.onChange(of: failure, report)
    }

    private func report(_ old: Failure?, _ new: Failure?) {
      if let failure = FailureTransition.newFailure(from: old, to: new) {
        action(failure)
      }
    }
  }

  extension View {
    /// Runs an action when a loadable state turns to an error.
    ///
    /// The action runs once per failure, when the state changes from something else (or from
    /// a different error) to an error — not when the view renders again while the error is
    /// shown, and not for a state that already holds an error when the view appears. Errors
    /// compare as in ``LoadableState``'s equality; see ``FailureTransition`` for when an
    /// equal error is not reported again.
    ///
    /// <!-- compile: context FailureWatchers -->
    /// ```swift
    /// List(books.data ?? []) { book in Text(book.title) }
    ///   .onLoadableError(books) { error in
    ///     alertMessage = error.localizedDescription
    ///   }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state to watch, such as a `@Loadable` property.
    ///   - action: Called with the error. SwiftUI calls it on the main actor; a closure
    ///     written in a view's `body` is main-actor isolated.
    /// - Returns: A view that runs `action` when `state` turns to an error.
    nonisolated public func onLoadableError<Value>(
      _ state: LoadableState<Value>,
      perform action: @escaping (_ error: any Error) -> Void
    ) -> some View {
      modifier(FailureWatcher(failure: state.failure) { action($0.error) })
    }

    /// Runs an action when a job fails.
    ///
    /// The action runs once per failure, when the state changes to
    /// `.failed(process:error:)` from another state or from the failure of another job or
    /// with another error — not when the view renders again while the failure is shown.
    ///
    /// <!-- compile: context FailureWatchers -->
    /// ```swift
    /// Button("Save") { $action.run(.save) { try await api.save(draft) } }
    ///   .onProcessFailed(action) { process, error in
    ///     failureMessage = "\(process) failed: \(error.localizedDescription)"
    ///   }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state to watch, such as a `@Process` property.
    ///   - action: Called with the job that failed and its error. SwiftUI calls it on the main
    ///     actor.
    /// - Returns: A view that runs `action` when `state` turns to a failure.
    nonisolated public func onProcessFailed<ProcessKind: Equatable>(
      _ state: ProcessState<ProcessKind>,
      perform action: @escaping (_ process: ProcessKind, _ error: any Error) -> Void
    ) -> some View {
      modifier(FailureWatcher(failure: state.failure) { action($0.process, $0.error) })
    }
  }
#endif
