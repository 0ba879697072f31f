import Loadables

/// An endless feed, served one page of three posts at a time. Page 3 fails the first time
/// it is asked for; ``publish()`` puts new posts at the top, as a server does between two
/// refreshes. It counts the pages it was asked for, so the scene can check them.
actor FeedPages {
  let pace: Pace
  /// The pages asked for, in order.
  private(set) var requests: [Int] = []
  private var failuresLeft: [Int: Int] = [3: 1]
  private var newest = 0

  init(pace: Pace) { self.pace = pace }

  /// The posts of page `number` and the number of the page after it: there always is one.
  func page(_ number: Int) async throws -> Page<String, Int> {
    requests.append(number)
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    if let left = failuresLeft[number], left > 0 {
      failuresLeft[number] = left - 1
      throw APIError.serverUnavailable
    }
    let first = (number - 1) * 3 + 1 - newest
    let posts = (first..<first + 3).map { $0 <= 0 ? "new \(1 - $0)" : "post \($0)" }
    return Page(items: posts, next: number + 1)
  }

  /// Three new posts go to the top of the feed.
  func publish() { newest += 3 }
}
