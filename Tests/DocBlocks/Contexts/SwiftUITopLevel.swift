// A block of declarations that uses SwiftUI, at the top level (compiled against the stand-in).
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

// <block>
