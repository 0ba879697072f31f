/// How a running load holds its slot.
@usableFromInline
protocol SlotReference: Sendable {
  associatedtype Slot: AnyObject
  var value: Slot? { get }
}

/// A weak reference to a slot, so that a running load never keeps its owner alive.
@usableFromInline
struct WeakSlot<Slot: AnyObject & Sendable>: SlotReference {
  @usableFromInline weak var value: Slot?

  @inlinable init(_ value: Slot) { self.value = value }
}

/// A strong reference to a slot that holds its owner weakly itself.
@usableFromInline
struct StrongSlot<Slot: AnyObject & Sendable>: SlotReference {
  @usableFromInline let value: Slot?

  @inlinable init(_ value: Slot) { self.value = value }
}
