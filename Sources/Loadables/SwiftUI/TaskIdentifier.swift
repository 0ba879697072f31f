#if canImport(SwiftUI)
  public import Foundation
  public import SwiftUI

  /// A property wrapper that holds an identifier for restarting a `task(id:)`: assign a new one
  /// and SwiftUI cancels the task and starts it again.
  ///
  /// The identifier lives in SwiftUI's storage for the view, like `@State`, so it survives the
  /// view being re-created. Read it (`reload`) to pass to `task(id:)`; change it through the
  /// projected value (`$reload.new()`). It defaults to a `UUID`, so every `new()` is distinct.
  ///
  /// <!-- compile: context TaskViewMembers -->
  /// ```swift
  /// @TaskIdentifier var reload
  ///
  /// var body: some View {
  ///   Text(status)
  ///     .task(id: reload) { status = await api.status() }  // restarts when `reload` changes
  ///     .toolbar { Button("Reload") { $reload.new() } }
  /// }
  /// ```
  ///
  /// For another type of identifier, name it: `@TaskIdentifier<String> var query = ""` and
  /// `$query.new("books")`. The same shape as Processed's `TaskIdentifier`.
  @propertyWrapper
  public struct TaskIdentifier<ID: Equatable>: DynamicProperty {
    @State private var id: ID

    /// The current identifier: pass it to `task(id:)`.
    public var wrappedValue: ID { id }

    /// The controls: `new()` and `new(_:)`.
    public var projectedValue: Access { Access(id: $id) }

    /// Creates the wrapper with an initial identifier.
    ///
    /// - Parameter wrappedValue: The first identifier.
    public init(wrappedValue: ID) {
      _id = State(initialValue: wrappedValue)
    }

    /// Creates the wrapper with a new `UUID` as its identifier.
    public init() where ID == UUID {
      _id = State(initialValue: UUID())
    }
  }

  extension TaskIdentifier {
    /// The projected value of a ``TaskIdentifier``: sets a new identifier, which restarts the
    /// tasks that use it.
    public struct Access {
      private let id: SwiftUI.Binding<ID>

      fileprivate init(id: SwiftUI.Binding<ID>) {
        self.id = id
      }

      /// Sets a new identifier.
      ///
      /// A `task(id:)` restarts only if the new identifier differs from the current one.
      ///
      /// - Parameter newID: The new identifier.
      public func new(_ newID: ID) {
        id.wrappedValue = newID
      }

      /// Sets a new, distinct `UUID`, which restarts the tasks that use the identifier.
      public func new() where ID == UUID {
        id.wrappedValue = UUID()
      }
    }
  }
#endif
