// A block of declarations that uses the os module (os.Logger, OSSignposter), at the top level,
// compiled against the stand-in of .ci/swiftui-check (Linux has no os module).
import DocSupport
import Foundation
import Loadables
import Observation
import os

// <block>
