/// Records how a block that waited at a gate ended.
@MainActor
final class Outcome {
  var error: (any Error)?
  var passed = false

  var sawCancellation: Bool { error is CancellationError }

  /// Waits at `gate`, honouring cancellation, and records how the wait ended.
  func wait(at gate: Gate<Void>) async throws {
    do {
      try await gate.pass()
      passed = true
    } catch {
      self.error = error
      throw error
    }
  }
}
