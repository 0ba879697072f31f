// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "loadables",
  // NB: Observation (used to notify observers through the property wrappers) needs these
  // floors. Everything else in the library would run on older systems.
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "Loadables", targets: ["Loadables"]),
    .library(name: "LoadablesTesting", targets: ["LoadablesTesting"]),
    .library(name: "LoadablesInspector", targets: ["LoadablesInspector"]),
    .executable(name: "loadables-demo", targets: ["LoadablesDemo"]),
  ],
  targets: [
    .target(name: "Loadables", exclude: ["README.md"]),
    .target(name: "LoadablesTesting", dependencies: ["Loadables"]),
    .target(name: "LoadablesInspector", dependencies: ["Loadables"]),
    .executableTarget(name: "LoadablesDemo", dependencies: ["Loadables", "LoadablesInspector"]),
    .testTarget(name: "LoadablesTests", dependencies: ["Loadables", "LoadablesTesting"]),
    .testTarget(name: "LoadablesDemoTests", dependencies: ["LoadablesDemo", "Loadables"]),
    .testTarget(
      name: "LoadablesInspectorTests",
      dependencies: ["LoadablesInspector", "Loadables", "LoadablesTesting"]),
    // An app module as Xcode 26 makes it: every form used with types declared plainly there.
    // (`unsafeFlags` because `.defaultIsolation` needs tools 6.2; a test target is never
    // built by a package that depends on this one.)
    .testTarget(
      name: "LoadablesClientTests",
      dependencies: ["Loadables", "LoadablesTesting"],
      swiftSettings: [
        .unsafeFlags(["-default-isolation", "MainActor"]),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
      .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
