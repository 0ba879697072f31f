#if canImport(SwiftUI)
  public import SwiftUI

  extension View {
    /// Follows a shared entry while the view is on screen: observes it from appear to
    /// disappear and loads it on appear, so reading the entry in `body` is enough.
    ///
    /// ```swift
    /// struct PostScreen: View {
    ///   let post: SharedLoader<Post>
    ///
    ///   var body: some View {
    ///     VStack {
    ///       if let value = post.state.data { Text(value.title) }
    ///       if post.isRunning { ProgressView() }
    ///     }
    ///     .following(post)
    ///   }
    /// }
    /// ```
    ///
    /// The entry's state is observable, so the view redraws when another screen's edit, an
    /// invalidation's refresh or a refresh trigger changes it. While the view is on screen
    /// the entry counts as observed: it refreshes when invalidated, runs its refresh
    /// triggers, and is not dropped from its store. Given another entry while on screen, the
    /// view follows that one instead. The logic is ``EntryPresence``'s, which the view keeps
    /// in its state.
    ///
    /// - Parameters:
    ///   - entry: The shared entry the view shows.
    ///   - loads: Whether to load the entry on appear (a fresh value fetches nothing); `true`
    ///     by default.
    ///   - silently: When `true`, that load does not write `.loading`.
    /// - Returns: A view that follows `entry` while it is on screen.
    @MainActor public func following<Value: Sendable, EntryState: SharedEntryState & Sendable>(
      _ entry: SharedEntry<Value, EntryState>, loads: Bool = true, silently: Bool = false
    ) -> some View {
      modifier(FollowingModifier(entry: entry, loads: loads, silently: silently))
    }
  }

  /// Runs an ``EntryPresence`` on the view's appear and disappear.
  private struct FollowingModifier<Value: Sendable, EntryState: SharedEntryState & Sendable>:
    ViewModifier
  where EntryState.Value == Value {
    let entry: SharedEntry<Value, EntryState>
    let loads: Bool
    let silently: Bool
    @SwiftUI.State private var presence = EntryPresence()

    func body(content: Content) -> some View {
      content
        .onAppear { presence.appeared(entry, loads: loads, silently: silently) }
        .onDisappear { presence.disappeared() }
        .onChange(of: ObjectIdentifier(entry)) {
          presence.changed(to: entry, loads: loads, silently: silently)
        }
    }
  }
#endif
