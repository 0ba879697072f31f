// The context of the fragments that write a policy as an argument is written, starting with a
// modifier (`.retry(...)`, `.debounce(...)`): applied to an empty policy, so every step of the
// chain is checked as a user writes it after `policy:`.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor
func block(downloads: ConcurrencyLimiter, connectivity: Connectivity) {
  let policy: LoadPolicy<[Post]> = LoadPolicy()
  // <block>
  _ = policy
}
