import Foundation
import Loadables

/// The scenes of the demo, in order. Each mounts a view of the model, triggers an action
/// and waits for it; the renderer prints a frame for every state the view goes through.
@MainActor
struct DemoScript {
  let model: DemoModel
  let pace: Pace
  let screen = TerminalRenderer()

  func play() async {
    await scene("Initial load: absent → loading → loaded", view: DemoScreen.numbers) {
      await model.loadNumbers().value
      expect(model.numbers == .loaded([1, 2, 3]))
    }

    await scene("Streaming: a new state per yield, until the stream ends", view: DemoScreen.feed) {
      await model.streamFeed().value
      expect(model.feed.data?.count == 3)
    }

    await scene("Silent refresh: the list stays while it reloads", view: DemoScreen.feed) {
      await model.refreshFeed().value
      expect(model.feed.data?.count == 4)
    }

    await scene("Failing load (key path, LoadableSupport)", view: DemoScreen.profile) {
      await model.loadProfile(failing: true).value
      expect(model.profile.isError)
      await note("retry:")
      await model.loadProfile(failing: false).value
      expect(model.profile == .loaded(Profile(name: "Ada", role: "admin")))
    }

    await scene(
      "Cancelled load: the state stays, the late result is dropped",
      view: DemoScreen.numbers
    ) {
      let load = model.loadNumbersIgnoringCancellation()
      await wait(.milliseconds(250))
      await note("cancel():")
      model.cancelNumbers()
      await screen.settle()
      await load.value  // ends once the request has answered, late
      await note(
        "the request answered \(FakeAPI.lateNumbers) anyway; numbers is still "
          + "\(String(reflecting: model.numbers)). reset():")
      expect(model.numbers == .loading)
      model.resetNumbers()
      expect(model.numbers == .absent)
    }

    await scene(
      "Saving with @LoadableProcess: idle → running → finished",
      view: DemoScreen.saving
    ) {
      await model.save().value
      expect(model.saving.hasFinished)
    }

    await scene("Publishing by key path (ProcessSupport)", view: DemoScreen.publishing) {
      await model.publish().value
      expect(model.publishing.hasFinished)
    }

    print("\nDone.")
  }

  // MARK: - Helpers

  /// Prints a heading, shows `view`, runs `actions`, then lets the last frame print and
  /// pauses a moment before the next scene.
  private func scene(
    _ title: String,
    view: @escaping @MainActor (DemoModel) -> String,
    actions: () async -> Void
  ) async {
    print("\n== \(title)")
    let model = model
    screen.mount { view(model) }
    await actions()
    await screen.settle()
    await wait(.milliseconds(150))
  }

  /// Prints a line between frames, once the frames so far are on screen.
  private func note(_ text: String) async {
    await screen.settle()
    print("     \(text)")
  }

  private func wait(_ delay: Duration) async {
    try? await Task.sleep(for: pace.scaled(delay))
  }

  /// Stops the demo with exit code 1 if the library did not do what the scene shows.
  private func expect(_ condition: Bool, line: Int = #line) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("unexpected state (DemoMain.swift:\(line))\n".utf8))
    exit(1)
  }
}
