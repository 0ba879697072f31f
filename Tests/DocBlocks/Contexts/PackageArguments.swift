// The arguments of a package manifest's `Package(...)`, after its name.
import PackageDescription

let package = Package(
  name: "MyApp",
  // <block>
)
