#if canImport(SwiftUI)
  public import SwiftUI

  extension View {
    /// Loads a state when the view appears, and loads it again whenever `id` changes.
    ///
    /// This is `task(id:priority:_:)` wired to a load: SwiftUI starts the load before the view
    /// appears, cancels it when the view disappears, and when `id` changes it cancels the
    /// running load and starts a new one. Pair it with ``TaskIdentifier`` to restart by hand.
    ///
    /// <!-- compile: context TaskViewMembers -->
    /// ```swift
    /// @Loadable var books: LoadableState<[Book]>
    /// @TaskIdentifier var reload
    ///
    /// var body: some View {
    ///   BookList(books)
    ///     .task(id: reload, loading: $books) { try await api.books() }
    ///     .toolbar { Button("Reload") { $reload.new() } }
    /// }
    /// ```
    ///
    /// > Important: The load runs in the modifier's task (the awaited form of `load`), so
    /// > cancelling it — the view disappears, `id` changes — cancels the load, and stopping the
    /// > load cancels that task.
    ///
    /// - Parameters:
    ///   - id: The value whose change restarts the load.
    ///   - binding: The projected value of the `@Loadable` property (`$books`).
    ///   - silently: When `true`, the state is not set to `.loading` first.
    ///   - priority: The priority of the task SwiftUI creates.
    ///   - block: Produces the value; runs on the main actor.
    /// - Returns: A view that loads `binding` when it appears and when `id` changes.
    nonisolated public func task<ID: Equatable, Value>(
      id: ID,
      loading binding: Loadable<Value>.Binding,
      silently: Bool = false,
      priority: TaskPriority = .userInitiated,
      block: @escaping @MainActor () async throws -> Value
    ) -> some View {
      task(id: id, priority: priority) {
        await binding.load(silently: silently, block: block)
      }
    }
  }
#endif
