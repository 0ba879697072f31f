import Loadables

/// What a `LoadingPresentation` of `[Int]` shows, without the failure's payload, so tests can
/// compare phases.
enum ShownPhase: Equatable {
  case empty
  case loading
  case failure(retryButton: Bool)
  case content([Int])
}

extension LoadingPresentation<[Int]> {
  var shown: ShownPhase {
    switch phase {
    case .empty: .empty
    case .loading: .loading
    case .failure(let failure): .failure(retryButton: failure.showsRetryButton)
    case .content(let items): .content(items)
    }
  }
}
