import Loadables

/// One file of a batch of downloads: a loader object (a `BaseLoader` subclass) that the
/// downloads view observes through its `state` and `progress`.
///
/// Every file of the batch shares one `ConcurrencyLimiter`, passed in its policy, so at most
/// `limiter.limit` of them download at once; the others wait in line with their state
/// `.loading` and no progress yet.
final class FileDownload: BaseLoader<Int> {
  let name: String

  /// How many chunks the file has; each takes the same time to download.
  let chunks: Int

  private let api: FakeAPI

  init(name: String, chunks: Int, api: FakeAPI, limiter: ConcurrencyLimiter) {
    self.name = name
    self.chunks = chunks
    self.api = api
    super.init(policy: .limit(limiter))
  }

  /// Runs once the limiter lets this file through. Reports 0 % at once, so that a file
  /// with no progress yet is one still waiting in line; the API reports the rest.
  override func fetch() async throws -> Int {
    LoadingProgress.report(fraction: 0, message: name)
    return try await api.download(name, chunks: chunks)
  }
}
