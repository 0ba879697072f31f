// A target of a package manifest's `targets:` list, beside the app's target it depends on.
import PackageDescription

let package = Package(
  name: "MyApp",
  dependencies: [.package(url: "https://example.com/loadables.git", from: "0.4.0")],
  targets: [
    .target(name: "MyApp", dependencies: [.product(name: "Loadables", package: "loadables")])
  ] + [
    // <block>
  ]
)
