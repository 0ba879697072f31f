import Foundation
import Loadables

/// The entry point: reads the options, then plays the scenes.
@main
struct DemoMain {
  static let usage = """
    usage: loadables-demo [--fast] [--inspect]

    Plays the states a screen goes through with Loadables and its policies (retry, timeout,
    debounce, a concurrency limit), two screens sharing one entry of a LoaderStore, a news
    reader's paged feed, detail, prefetches, renames and logout in one store, and an app
    relaunched offline that shows yesterday's feed and syncs an edit once back online,
    printing one frame each time the terminal "view" re-renders.

      --fast   cut every delay to 1 ms, and every time limit (timeout, debounce) to 100 ms,
               for CI; every scene ends in the same states, but frames that depend on
               timing (downloads running side by side, retry waits) differ
      --inspect  play the scenes that use a store with the inspector's model as the view
                 (LoadablesInspector's StoreInspector as text: its table of entries and
                 outbox, then an entry's history), and the inspector's actions: make the
                 next fetch fail, pretend to be offline, invalidate
      --help   show this help

    """

  @MainActor
  static func main() async {
    var isFast = false
    var isInspecting = false
    for argument in CommandLine.arguments.dropFirst() {
      switch argument {
      case "--fast": isFast = true
      case "--inspect": isInspecting = true
      case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
      default:
        FileHandle.standardError.write(Data("unknown argument: \(argument)\n\(usage)".utf8))
        exit(2)
      }
    }
    let pace = Pace(isFast: isFast)
    let script = DemoScript(model: DemoModel(api: FakeAPI(pace: pace), pace: pace), pace: pace)
    if isInspecting {
      await script.playInspecting()
    } else {
      await script.play()
    }
  }
}
