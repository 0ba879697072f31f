// The key-path forms hand out the same handle as the property wrappers: `handle(\.feed)`.

extension LoadableSupport {
  /// The handle of `state` on this instance: its status and controls, as every form hands
  /// them out (see ``LoadHandle``).
  ///
  /// The handle holds this instance weakly and looks the key path's load up each time it is
  /// used, so it can be kept, passed to a view or a test, and read at any time.
  ///
  /// <!-- compile: context ModelView -->
  /// ```swift
  /// if model.handle(\.feed).isRunning { ProgressView() }
  /// ```
  ///
  /// <!-- compile: context SupportModel -->
  /// ```swift
  /// for await state in model.handle(\.feed).states { print(state) }
  /// ```
  ///
  /// - Parameter state: The key path of the state.
  /// - Returns: The handle of `state` on this instance.
  @MainActor
  public func handle<Value: Sendable>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>
  ) -> LoadHandle<LoadableState<Value>> {
    LoadHandle(KeyPathControl(self, state))
  }

  /// The handle of the paged list `state` on this instance (see ``LoadHandle``); its paging
  /// members, such as ``LoadHandle/isRefreshing``, are there too.
  ///
  /// <!-- compile: context PagingView -->
  /// ```swift
  /// if model.handle(\.feed).isRefreshing { ProgressView() }
  /// ```
  ///
  /// - Parameter state: The key path of the list.
  /// - Returns: The handle of `state` on this instance.
  @MainActor
  public func handle<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> LoadHandle<PagedState<Item, Cursor>> {
    LoadHandle(KeyPathControl(self, state))
  }
}

extension ProcessSupport {
  /// The handle of `state` on this instance: its status and controls, as every form hands
  /// them out (see ``LoadHandle``).
  ///
  /// The handle holds this instance weakly and looks the key path's job up each time it is
  /// used.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// Button("Save") { model.run(\.saving, as: .save) { try await api.save() } }
  ///   .disabled(model.handle(\.saving).isRunning)
  /// ```
  ///
  /// - Parameter state: The key path of the state.
  /// - Returns: The handle of `state` on this instance.
  @MainActor
  public func handle<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> LoadHandle<ProcessState<ProcessKind>> {
    LoadHandle(KeyPathControl(self, state))
  }
}
