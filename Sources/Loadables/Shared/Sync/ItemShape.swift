/// How an entry's value is made of items.
enum ItemShape {
  /// The value is one item (a detail).
  case single
  /// The value is an array of items (a list, a paged list's items).
  case list
}
