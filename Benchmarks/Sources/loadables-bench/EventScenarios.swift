import Loadables

/// What the library's listener keeps: every event, as a log would.
@MainActor
final class EventLog {
  var events: [LoadEvent] = []

  init(capacity: Int) { events.reserveCapacity(capacity) }
}

/// The event stream's cost (issue 21): an awaited wrapper load, as in `cycle.await.wrapper`,
/// with the stream compiled in and nobody listening, and with one listener keeping every
/// event. Both logs are made with room for every record, so an iteration costs the records'
/// making and appending, not the array's growth.
@MainActor
let eventScenarios: [Scenario] = [
  Scenario(
    name: "events.off", unit: "load cycle",
    library: { iterations in
      // Someone listened once and stopped: the flag is back off, and the loads pay its check.
      LoadEvents.listen { _ in }.cancel()
      let model = WrapperModel.shown()
      for index in 0..<iterations {
        await model.$value.load { index }
      }
    },
    baseline: { iterations in
      let model = HandObservableModel()
      for index in 0..<iterations {
        await model.loadAwaited { index }
      }
    }
  ),
  Scenario(
    name: "events.listening", unit: "load cycle",
    library: { iterations in
      let model = WrapperModel.shown()
      let log = EventLog(capacity: 2 * iterations)
      let subscription = LoadEvents.listen { log.events.append($0) }
      for index in 0..<iterations {
        await model.$value.load { index }
      }
      subscription.cancel()
      precondition(log.events.count == 2 * iterations)
    },
    baseline: { iterations in
      let model = HandLoggedModel()
      model.log.reserveCapacity(2 * iterations)
      for index in 0..<iterations {
        await model.loadAwaited { index }
      }
      precondition(model.log.count == 2 * iterations)
    }
  ),
]
