// App-side code for `.ci/swiftui-check`: the os.Logger and OSSignposter examples of the
// "Debugging Loads" article, copied verbatim, type-checked against the os stand-in and the
// library. (The article's other examples are in Tests/LoadablesTests/
// DebuggingLoadsArticleTests.swift.) Never built by SwiftPM, never run.
import Loadables
import os

// MARK: - Article: os.Logger in one line

@MainActor
func startLoadLog() -> LoadEventSubscription {
  LoadEvents.log(to: Logger(subsystem: "com.example.app", category: "loads"))
}

/// The options the article names: `minimumLevel: .info`, `privacy: .public`.
@MainActor
func startQuietPublicLoadLog() -> LoadEventSubscription {
  LoadEvents.log(
    to: Logger(subsystem: "com.example.app", category: "loads"), privacy: .public,
    minimumLevel: .info)
}

// MARK: - Article: Signposts in Instruments

@MainActor
func startLoadSignposts() -> LoadEventSubscription {
  LoadEvents.signpost(to: OSSignposter(subsystem: "com.example.app", category: "loads"))
}
