import Foundation
import Loadables

/// A paged server for tests: every fetch records the cursor it asked for and waits at a
/// gate of its own (the first fetch at `gate(0)`, the second at `gate(1)`, ...), which the
/// test opens with a page or an error.
@MainActor
final class PageServer {
  /// The cursors fetched, in order.
  private(set) var calls: [Int] = []
  private var gates: [Gate<Page<Int, Int>>] = []
  /// Whether fetches ignore cancellation, as careless code does.
  var ignoresCancellation = false

  /// The gate the `index`-th fetch (from 0) waits at.
  func gate(_ index: Int) -> Gate<Page<Int, Int>> {
    while gates.count <= index { gates.append(Gate()) }
    return gates[index]
  }

  func fetch(_ cursor: Int) async throws -> Page<Int, Int> {
    let gate = gate(calls.count)
    calls.append(cursor)
    return try await ignoresCancellation ? gate.passIgnoringCancellation() : gate.pass()
  }

  /// Waits until the `index`-th fetch has arrived at its gate, then opens it with `page`.
  func answer(_ index: Int, with page: Page<Int, Int>) async {
    await gate(index).arrival()
    gate(index).open(page)
  }

  /// Waits until the `index`-th fetch has arrived at its gate, then fails it.
  func fail(_ index: Int, with error: any Error) async {
    await gate(index).arrival()
    gate(index).fail(error)
  }

  /// A source whose first cursor is 1, under `policy`.
  func source(policy: LoadPolicy<Page<Int, Int>> = LoadPolicy()) -> PagedSource<Int, Int> {
    PagedSource(first: 1, policy: policy) { [unowned self] cursor in
      try await self.fetch(cursor)
    }
  }
}

/// Page `number` of three items (`number * 10 + 0...2`), followed by page `number + 1`
/// unless `last`.
func page(_ number: Int, last: Bool = false) -> Page<Int, Int> {
  Page(items: [number * 10, number * 10 + 1, number * 10 + 2], next: last ? nil : number + 1)
}

/// The items of pages `numbers`, in order.
func items(_ numbers: Int...) -> [Int] {
  numbers.flatMap { page($0).items }
}
