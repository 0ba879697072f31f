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
    .target(name: "Loadables"),
    .target(name: "LoadablesTesting", dependencies: ["Loadables"]),
    .target(name: "LoadablesInspector", dependencies: ["Loadables"]),
    .executableTarget(name: "LoadablesDemo", dependencies: ["Loadables", "LoadablesInspector"]),
    .testTarget(name: "LoadablesTests", dependencies: ["Loadables", "LoadablesTesting"]),
    .testTarget(name: "LoadablesDemoTests", dependencies: ["LoadablesDemo", "Loadables"]),
    .testTarget(
      name: "LoadablesInspectorTests",
      dependencies: ["LoadablesInspector", "Loadables", "LoadablesTesting"]),
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
