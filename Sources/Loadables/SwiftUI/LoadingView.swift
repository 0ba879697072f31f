#if canImport(SwiftUI)
  public import SwiftUI

  /// A view that shows a load: a progress view while there is nothing to show yet, the
  /// content once it loaded (kept on screen during a silent refresh), and an error view with a
  /// retry button when it failed.
  ///
  /// Give it a ``Loader`` or a `@Loadable` property's projection, and a view builder for the
  /// loaded value:
  ///
  /// <!-- compile: context LoadingViews -->
  /// ```swift
  /// LoadingView(feed) { posts in                      // any loader; loads when it appears
  ///   PostList(posts)
  /// }
  ///
  /// LoadingView($books) { [api] in                    // a @Loadable property, with the
  ///   try await api.books()                           // block that loads it on appear and
  /// } content: { books in                             // on retry
  ///   BookList(books)
  /// }
  /// .errorView { failure, retry in Text(failure.message) }   // optional customisation
  /// .progressView { progress in ProgressView(value: progress?.fraction) }
  /// .emptyView { Text("No books yet") }
  /// ```
  ///
  /// Every decision is ``LoadingPresentation``'s — which view a state maps to, when the retry
  /// button shows, what the error view reads to VoiceOver, when a refresh keeps the content,
  /// when to load on appear — and is tested without SwiftUI; this view only maps them to views.
  /// It keeps no copy of the state: `body` reads the loader's (or the binding's) observable
  /// `state`, `isRunning`, `progress`, `attempt` and `isWaitingForNetwork`, so the view updates
  /// when they change.
  ///
  /// - The **default progress view** shows the reported fraction (or an indeterminate
  ///   spinner) and ``LoadingPresentation/progressText``: the progress message (`Waiting for
  ///   the network` in its place while the load waits for the network) and, when a retry policy
  ///   makes a second attempt, which one (`attempt 2 of 3`).
  /// - The **default error view** shows the error's message, with the accessibility label
  ///   ``FailurePresentation/accessibilityLabel`` ("Loading failed") and the message as its
  ///   accessibility value, and a "Try Again" button when retrying is possible. Retrying loads
  ///   silently: the error stays, a small spinner replaces the button (with `Waiting for the
  ///   network` under it while the retry waits for the network), and the result replaces
  ///   both — the spinner never flashes over the error.
  /// - The **content** stays on screen during a silent refresh, also while it waits for the
  ///   network. The view adds nothing over it; for an "offline" badge, read the loader's (or
  ///   the binding's) `isWaitingForNetwork` in the content.
  /// - The **default empty view**, shown when nothing was requested and nothing loads, is
  ///   empty.
  ///
  /// The customisation modifiers return a `LoadingView`, so apply them to it directly, before
  /// any other modifier.
  ///
  /// > Important: With `loadOnAppear` (the default) the view loads when it appears, unless a
  /// > load is running or a value is loaded: coming back to a screen never reloads it. A
  /// > loader's load runs in a task of its own, so a view that goes away does not cancel a load
  /// > other views observe; a `@Loadable` property's load is cancelled when its owner goes away.
  public struct LoadingView<Value: Sendable, Content: View>: View {
    private let source: LoadingSource<Value>
    private let content: (Value) -> Content
    private var emptyView: (() -> AnyView)?
    private var progressView: ((LoadingProgress?) -> AnyView)?
    private var errorView: ((FailurePresentation, @escaping @MainActor () -> Void) -> AnyView)?

    /// Shows a loader's content.
    ///
    /// <!-- compile: context LoadingViews -->
    /// ```swift
    /// LoadingView(feed) { posts in PostList(posts) }
    /// ```
    ///
    /// - Parameters:
    ///   - loader: The loader to show. The view keeps it for as long as the view lives.
    ///   - loadOnAppear: Whether to load when the view appears and nothing is loaded or
    ///     running. `true` by default.
    ///   - content: Builds the view for the loaded value.
    public init<L: Loader>(
      _ loader: L,
      loadOnAppear: Bool = true,
      @ViewBuilder content: @escaping (Value) -> Content
    ) where L.Value == Value {
      source = LoadingSource(loader: loader, loadOnAppear: loadOnAppear)
      self.content = content
    }

    /// Shows a `@Loadable` property's content, loading it with `fetch`.
    ///
    /// A binding has no fetch of its own, so pass the block that produces the value: the view
    /// runs it when it appears and when the user taps the retry button. Without one the view
    /// only shows the state — loaded elsewhere, such as by `.task(id:loading:)` — and its error
    /// view has no retry button.
    ///
    /// <!-- compile: context LoadingViews -->
    /// ```swift
    /// LoadingView($books) { [api] in try await api.books() } content: { books in
    ///   BookList(books)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The projected value of the `@Loadable` property (`$books`).
    ///   - loadOnAppear: Whether to load when the view appears and nothing is loaded or
    ///     running. `true` by default; without `fetch` nothing loads.
    ///   - policy: How to run `fetch` (retry, timeout, ...); none by default.
    ///   - fetch: Produces the value; runs on the main actor.
    ///   - content: Builds the view for the loaded value.
    public init(
      _ binding: Loadable<Value>.Binding,
      loadOnAppear: Bool = true,
      policy: LoadPolicy<Value> = LoadPolicy(),
      fetch: (@MainActor () async throws -> Value)? = nil,
      @ViewBuilder content: @escaping (Value) -> Content
    ) {
      source = LoadingSource(
        binding: binding, policy: policy, fetch: fetch, loadOnAppear: loadOnAppear)
      self.content = content
    }

    public var body: some View {
      let presentation = source.presentation(
        failureLabel: FailurePresentation.defaultAccessibilityLabel)
      // The stack is always there, whichever phase shows: `onAppear` hangs on it rather than on
      // the phase's view, so it fires once per appearance (a phase view's own `onAppear` would
      // fire on every change of phase), and fires even when the phase's view is empty.
      VStack {
        switch presentation.phase {
        case .empty:
          if let emptyView { emptyView() } else { EmptyView() }
        case .loading:
          if let progressView {
            progressView(presentation.progress)
          } else {
            VStack {
              ProgressView(value: presentation.progress?.fraction)
              if let text = presentation.progressText { Text(text) }
            }
          }
        case .failure(let failure):
          if let errorView {
            errorView(failure, retry)
          } else {
            VStack {
              Text(failure.message)
                .accessibilityLabel(Text(failure.accessibilityLabel))
                .accessibilityValue(Text(failure.accessibilityValue))
              if failure.showsRetryButton {
                Button(FailurePresentation.retryButtonTitle, action: retry)
              } else if presentation.isRefreshing {
                ProgressView()
                if let text = presentation.waitingText { Text(text) }
              }
            }
          }
        case .content(let value):
          content(value)
        }
      }
      .onAppear { source.appear() }
      .task { await source.observeWhileShown() }
    }

    /// Loads again, silently; what the retry button (yours or the default one) calls.
    private var retry: @MainActor () -> Void {
      let source = source
      return { source.retry() }
    }
  }

  extension LoadingView {
    /// Replaces the view shown when the load failed.
    ///
    /// <!-- compile: context LoadingViewModifiers -->
    /// ```swift
    /// .errorView { failure, retry in
    ///   ContentUnavailableView {
    ///     Label("No connection", systemImage: "wifi.slash")
    ///   } description: {
    ///     Text(failure.message)
    ///   } actions: {
    ///     if failure.showsRetryButton { Button("Try Again", action: retry) }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameter view: Builds the error view from the failure — its message, accessibility
    ///   label and value, and whether to offer a retry — and the action that retries (a silent
    ///   load; it does nothing when the view has no way to load).
    /// - Returns: The loading view with this error view.
    public func errorView<V: View>(
      @ViewBuilder _ view:
        @escaping (
          _ failure: FailurePresentation, _ retry: @escaping @MainActor () -> Void
        ) -> V
    ) -> LoadingView {
      var copy = self
      copy.errorView = { AnyView(view($0, $1)) }
      return copy
    }

    /// Replaces the view shown when the load failed, with a view built from the error alone:
    /// LoadingView's `.errorView { error in ... }`.
    ///
    /// <!-- compile: context LoadingViewModifiers -->
    /// ```swift
    /// .errorView { error in
    ///   Text(error.localizedDescription)
    /// }
    /// ```
    ///
    /// The view gets no retry action: `.errorView { failure, retry in ... }` gives one, with
    /// the failure's message and accessibility label.
    ///
    /// - Parameter view: Builds the error view from the error the load failed with.
    /// - Returns: The loading view with this error view.
    public func errorView<V: View>(
      @ViewBuilder _ view: @escaping (_ error: any Error) -> V
    ) -> LoadingView {
      errorView { failure, _ in view(failure.error) }
    }

    /// Replaces the view shown while a load runs and there is nothing to keep on screen.
    ///
    /// <!-- compile: context LoadingViewModifiers -->
    /// ```swift
    /// .progressView { progress in
    ///   ProgressView(value: progress?.fraction) { Text(progress?.message ?? "Loading…") }
    /// }
    /// ```
    ///
    /// - Parameter view: Builds the progress view from the progress the load reported, if any.
    ///   The retry attempt and the wait for the network are the loader's (or the binding's)
    ///   `attempt` and `isWaitingForNetwork`.
    /// - Returns: The loading view with this progress view.
    public func progressView<V: View>(
      @ViewBuilder _ view: @escaping (_ progress: LoadingProgress?) -> V
    ) -> LoadingView {
      var copy = self
      copy.progressView = { AnyView(view($0)) }
      return copy
    }

    /// Replaces the view shown when nothing was requested and nothing loads (with
    /// `loadOnAppear: false`, or a binding without `fetch`, or after `reset()`).
    ///
    /// <!-- compile: context LoadingViewModifiers -->
    /// ```swift
    /// .emptyView { Text("Search for a book") }
    /// ```
    ///
    /// - Parameter view: Builds the empty view.
    /// - Returns: The loading view with this empty view.
    public func emptyView<V: View>(@ViewBuilder _ view: @escaping () -> V) -> LoadingView {
      var copy = self
      copy.emptyView = { AnyView(view()) }
      return copy
    }
  }
#endif
