// A block of declarations, at the top level of a file of its own module.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

// <block>
