#if canImport(SwiftUI)
  public import SwiftUI

  extension View {
    /// Makes the view refreshable by reloading a loadable state silently.
    ///
    /// Pull to refresh keeps the loaded content on screen while the new value loads: the load
    /// is silent, so the state never turns to `.loading`, and SwiftUI's refresh indicator
    /// stays until the load ends. A failed refresh writes `.error(error)` as any load does.
    ///
    /// ```swift
    /// List(books.data ?? []) { book in Text(book.title) }
    ///   .refreshable($books) { try await api.books() }
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The projected value of the `@Loadable` property (`$books`).
    ///   - block: Produces the new value; runs on the main actor.
    /// - Returns: A view that reloads `binding` when the user asks for a refresh.
    nonisolated public func refreshable<Value>(
      _ binding: Loadable<Value>.Binding,
      block: @escaping @MainActor () async throws -> Value
    ) -> some View {
      refreshable {
        await binding.load(silently: true, block: block)
      }
    }

    /// Makes the view refreshable by running a job silently: the data-in-the-store pattern.
    ///
    /// Use it when the data lives elsewhere (a store) and a `@Process` tracks only the request:
    /// the list stays on screen, the state never turns to `.running`, and a failure writes
    /// `.failed(process:error:)`.
    ///
    /// <!-- compile: context RefreshableStore -->
    /// ```swift
    /// List(store.books) { book in Text(book.title) }
    ///   .refreshable($loading, process: .refresh) { try await store.reload() }
    /// ```
    ///
    /// - Parameters:
    ///   - binding: The projected value of the `@Process` property.
    ///   - process: Which job the refresh is.
    ///   - block: The job; runs on the main actor.
    /// - Returns: A view that runs the job when the user asks for a refresh.
    nonisolated public func refreshable<ProcessKind>(
      _ binding: Process<ProcessKind>.Binding,
      process: sending ProcessKind,
      block: @escaping @MainActor () async throws -> Void
    ) -> some View {
      // The kind moves into a main-actor closure, where the job runs: SwiftUI's action is
      // `@Sendable`, and the kind need not be (an app module's `enum Action: Equatable`).
      let run: @MainActor () async -> Void = {
        await binding.run(process, silently: true, block: block)
      }
      return refreshable { await run() }
    }
  }
#endif
