#if canImport(SwiftUI)
  public import SwiftUI
  import Loadables

  /// The inspector on screen: the store's entries, one entry's state, freshness and history
  /// with the actions of a query devtool, the outbox, and a switch to pretend to be offline.
  ///
  /// It only shows a ``StoreInspector`` and calls its actions; everything it says comes from
  /// the model, which is tested on every platform. Put it behind a debug gesture or in a
  /// sheet:
  ///
  /// <!-- compile: context InspectorSheet -->
  /// ```swift
  /// @State private var inspector = StoreInspector(store: appStore)
  /// @State private var showsInspector = false
  ///
  /// var body: some View {
  ///   ContentView()
  ///     .sheet(isPresented: $showsInspector) { StoreInspectorView(inspector: inspector) }
  /// }
  /// ```
  public struct StoreInspectorView: View {
    private let inspector: StoreInspector
    /// The ``EntrySnapshot/id`` of the entry shown in detail; `nil` for the list.
    @State private var selected: String? = nil

    /// Shows `inspector`.
    ///
    /// - Parameter inspector: The model to show; it keeps listening while the view is gone.
    public init(inspector: StoreInspector) {
      self.inspector = inspector
    }

    /// The list of entries, or the selected entry, then the outbox.
    public var body: some View {
      VStack(alignment: .leading) {
        Text(verbatim: header)
        Button(inspector.isSimulatingOffline ? "Back online" : "Pretend to be offline") {
          inspector.isSimulatingOffline.toggle()
        }
        Button("Refresh") { inspector.refresh() }
        if let entry = selectedEntry {
          EntryDetailView(inspector: inspector, entry: entry) { selected = nil }
        } else {
          EntryRowsView(entries: inspector.snapshot.entries) { selected = $0 }
        }
        Text(verbatim: outbox)
      }
    }

    private var selectedEntry: EntrySnapshot? {
      guard let selected else { return nil }
      return inspector.snapshot.entries.first { $0.id == selected }
    }

    private var header: String {
      let snapshot = inspector.snapshot
      var header = "\(snapshot.entries.count) entries, fetching \(snapshot.runningCount)"
      if snapshot.isSimulatingOffline {
        header += ", offline (simulated)"
      } else if let isOnline = snapshot.isOnline {
        header += isOnline ? ", online" : ", offline"
      }
      return header
    }

    private var outbox: String {
      let items = inspector.snapshot.outbox
      guard !items.isEmpty else { return "Outbox: empty" }
      return (["Outbox:"] + items.map { "\($0.name): \($0.status)" }).joined(separator: "\n")
    }
  }

  /// The entries, one button a row.
  struct EntryRowsView: View {
    let entries: [EntrySnapshot]
    let select: @MainActor (String) -> Void

    var body: some View {
      List {
        ForEach(entries) { entry in
          Button(Self.row(entry)) { select(entry.id) }
        }
      }
    }

    /// "["posts", 1]  loaded · 2 observers · invalidated · fetching".
    static func row(_ entry: EntrySnapshot) -> String {
      var parts = [entry.phase.description]
      parts.append("\(entry.observerCount) observer\(entry.observerCount == 1 ? "" : "s")")
      parts.append(entry.staleness.description)
      if entry.isRunning { parts.append(entry.isWaitingForNetwork ? "waiting" : "fetching") }
      return "\(entry.id)  " + parts.joined(separator: " · ")
    }
  }

  /// One entry: what ``StoreInspector/renderEntry(_:now:)`` says of it (state, why stale, who
  /// fetched it last, history), and the actions.
  struct EntryDetailView: View {
    let inspector: StoreInspector
    let entry: EntrySnapshot
    let close: @MainActor () -> Void

    var body: some View {
      VStack(alignment: .leading) {
        Button("All entries") { close() }
        Text(verbatim: inspector.renderEntry(entry.key))
        Button("Refresh") { inspector.refresh(entry.key) }
        Button("Invalidate") { inspector.invalidate(entry.key) }
        Button("Reset") { inspector.reset(entry.key) }
        Button("Make the next fetch fail") { inspector.failNextFetch(of: entry.key) }
        Button("Remove") {
          inspector.remove(entry.key)
          close()
        }
      }
    }
  }
#endif
