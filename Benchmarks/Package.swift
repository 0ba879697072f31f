// swift-tools-version: 6.0
import PackageDescription

// The benchmark package: measures the library side by side with hand-written code that does
// the same job, in one process. `./compare` builds it in release and prints the ratios.
let package = Package(
  name: "loadables-benchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "loadables", path: "..")
  ],
  targets: [
    .target(name: "MallocCounter"),
    .target(name: "MainThreadExecutor"),
    .executableTarget(
      name: "loadables-bench",
      dependencies: [
        "MallocCounter",
        "MainThreadExecutor",
        .product(name: "Loadables", package: "loadables"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
