#if canImport(SwiftUI)
  public import SwiftUI

  // The Apple-only faces of the wrappers. They hold no logic: `update()` picks the storage
  // SwiftUI keeps for the view, and `binding` reads and writes that storage.

  extension Loadable: DynamicProperty {
    /// Switches to the storage SwiftUI keeps for this view, so the state and its running
    /// load survive the view being re-created. Called by SwiftUI before each `body`.
    public mutating func update() {
      storage = installedStorage
    }
  }

  extension Process: DynamicProperty {
    /// Switches to the storage SwiftUI keeps for this view, so the state and its running
    /// job survive the view being re-created. Called by SwiftUI before each `body`.
    public mutating func update() {
      storage = installedStorage
    }
  }

  extension Loadable.Binding {
    /// A SwiftUI binding to the state. Unlike ``wrappedValue``, setting it does not cancel
    /// the running load.
    ///
    /// Read and write it on the main actor, as SwiftUI does.
    @MainActor public var binding: SwiftUI.Binding<LoadableState<Value>> {
      let storage = self.storage
      // `Binding(get:set:)` takes `@_inheritActorContext @isolated(any) @Sendable` closures
      // (iOS 18.0 SDK): a closure written here, in a main-actor getter, is main-actor isolated
      // even without `@MainActor in`, and SwiftUI calls it there. The annotation only says so
      // in the code; the closures capture `storage` alone, which is `Sendable`.
      return SwiftUI.Binding(
        get: { @MainActor in storage.state },
        set: { @MainActor newValue in storage.write(newValue) })
    }
  }

  extension CallerStorage {
    /// Storage read and written through two SwiftUI bindings: the caller's state and the
    /// place it keeps the running load's task (`Binding(state:task:)` of both bindings).
    convenience init(
      state: SwiftUI.Binding<State>, task: SwiftUI.Binding<Task<Void, Never>?>
    ) {
      self.init(
        state: { state.wrappedValue }, setState: { state.wrappedValue = $0 },
        task: { task.wrappedValue }, setTask: { task.wrappedValue = $0 })
    }
  }

  extension Loadable.Binding {
    /// A binding over your own state and task storage, as Processed's `Binding(state:task:)`.
    ///
    /// The state is read and written through `state`, and the task of each `Task`-returning
    /// load is kept in `task`, so your code can see and cancel it. The binding behaves as
    /// `$numbers` does: a load cancels the task `task` holds, whoever started it, then writes
    /// `.loading` and its outcome through `state`; a superseded or cancelled load never
    /// writes; `cancel()` and `reset()` cancel the task `task` holds and empty it. A binding
    /// made again over the same storage while a load it started runs (a view's `body` makes
    /// one each time) is that load's binding: its `cancel()` reaches the load, and `isRunning`
    /// shows it. An awaited load keeps no task there, as in Processed.
    ///
    /// ```swift
    /// struct BooksView: View {
    ///   let api: any BookAPI
    ///   @State private var books: LoadableState<[Book]> = .absent
    ///   @State private var loadTask: Task<Void, Never>?
    ///
    ///   var body: some View {
    ///     let binding = Loadable.Binding(state: $books, task: $loadTask)
    ///     Button("Load") { [api] in binding.load { try await api.books() } }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: Where the state is kept.
    ///   - task: Where the running load's task is kept.
    @MainActor
    public init(
      state: SwiftUI.Binding<LoadableState<Value>>,
      task: SwiftUI.Binding<Task<Void, Never>?>
    ) {
      self.init(caller: CallerStorage(state: state, task: task))
    }
  }

  extension Process.Binding {
    /// A binding over your own state and task storage, as Processed's `Binding(state:task:)`.
    ///
    /// The state is read and written through `state`, and the task of each `Task`-returning
    /// job is kept in `task`, so your code can see and cancel it. The binding behaves as
    /// `$saving` does: a job cancels the task `task` holds, whoever started it, then writes
    /// `.running(kind)` and its outcome through `state`; a superseded or cancelled job never
    /// writes; `cancel()` and `reset()` cancel the task `task` holds and empty it. A binding
    /// made again over the same storage while a job it started runs is that job's binding.
    /// An awaited job keeps no task there, as in Processed.
    ///
    /// ```swift
    /// struct SaveButton: View {
    ///   let api: any BookAPI
    ///   let book: Book
    ///   @State private var saving: SingleProcessState = .idle
    ///   @State private var saveTask: Task<Void, Never>?
    ///
    ///   var body: some View {
    ///     let binding = Loadables.Process.Binding(state: $saving, task: $saveTask)
    ///     Button("Save") { [api, book] in binding.run { try await api.save(book) } }
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: Where the state is kept.
    ///   - task: Where the running job's task is kept.
    @MainActor
    public init(
      state: SwiftUI.Binding<ProcessState<ProcessKind>>,
      task: SwiftUI.Binding<Task<Void, Never>?>
    ) {
      self.init(caller: CallerStorage(state: state, task: task))
    }
  }

  extension Process.Binding {
    /// A SwiftUI binding to the state. Unlike ``wrappedValue``, setting it does not cancel
    /// the running job.
    ///
    /// Read and write it on the main actor, as SwiftUI does.
    @MainActor public var binding: SwiftUI.Binding<ProcessState<ProcessKind>> {
      let storage = self.storage
      return SwiftUI.Binding(
        get: { @MainActor in storage.state },
        set: { @MainActor newValue in storage.write(newValue) })
    }
  }
#endif
