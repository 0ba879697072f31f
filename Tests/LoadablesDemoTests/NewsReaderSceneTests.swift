import Loadables
import XCTest

@testable import LoadablesDemo

/// The news reader's scene, played without a terminal: the lines it notes between frames
/// are the ones the demo prints, and every check the demo makes must hold.
@MainActor
final class NewsReaderSceneTests: XCTestCase {
  func testTheSceneNotesEveryStepOfTheNewsReader() async {
    let reader = NewsReader(pace: Pace(isFast: true))
    var lines: [String] = []
    var frames: [String] = []
    await reader.play(
      note: { line in
        lines.append(line)
        frames.append(DemoScreen.newsReader(reader))
      },
      check: { condition, what in XCTAssertTrue(condition, what) })
    let text = lines.joined(separator: "\n")

    for expected in [
      "both screens open: one fetch, isRunning true, runningCount 1, observers 2",
      "requests: GET /articles?page=1, GET /articles?page=2",
      "one permit (isRunning true, runningCount 2)",
      "tap row 1: the detail shows the row as a placeholder (isPlaceholder: true)",
      "isRunning true, runningCount 3",
      "article requests in order: GET /articles/2, GET /articles/1, GET /articles/3",
      "the detail's fetch landed: isPlaceholder false, isRunning false, runningCount 0",
      "staleTime 60.0 seconds (the store's), policy limit(1)",
      "rename to “Trains run on time”: edit.update → detail .updated, feed .updated",
      "the server accepted: committed",
      "rename to “TRAINS RUN ON TIME”: edit.update → detail .updated, feed .updated",
      "the server refused: 422 titles may not shout",
      "rolled back: both show “Trains run on time” again",
      "logout while the feed refreshes: isRunning true, runningCount 1",
      "store.remove([\"articles\"]): 4 entries removed, 0 left; isRunning false, runningCount 0",
    ] {
      XCTAssertTrue(text.contains(expected), "missing “\(expected)” in:\n\(text)")
    }

    // What the screens showed at the notes: the placeholder, then the fetched article, the
    // optimistic title on both, and nothing after the logout.
    XCTAssertTrue(
      frames.contains {
        $0.contains(#"detail ["articles", 1]: “Trains run late” … (placeholder)"#)
      },
      frames.joined(separator: "\n"))
    XCTAssertTrue(
      frames.contains {
        $0.contains("feed: 1 TRAINS RUN ON TIME |")
          && $0.contains(#"detail ["articles", 1]: “TRAINS RUN ON TIME” 120 words"#)
      }, frames.joined(separator: "\n"))
    XCTAssertEqual(frames.last, "store: idle\n  feed: (nothing)")
  }
}
