/// Fields that most values leave unset, kept out of line so that the value holding them stays small: no element while
/// every field is unset, one otherwise (a syntax tree's and a checked formula's parameters keep their range and default
/// so, `Documentation` its fields besides the summary). A value with none set allocates nothing, and copying one is a
/// reference.
struct OutOfLine<Fields: OutOfLineFields>: Sendable {
  /// No element, or one whose fields are not all unset.
  private var storage: [Fields] = []

  init() {}

  init(_ fields: Fields) {
    if !fields.isEmpty { storage = [fields] }
  }

  /// The fields, all unset when there is no element.
  var fields: Fields { storage.first ?? Fields() }

  /// Whether every field is unset.
  var isEmpty: Bool { storage.isEmpty }

  /// Changes the fields; no element is kept when `body` leaves them all unset.
  mutating func update(_ body: (inout Fields) -> Void) {
    var value = fields
    // The array's one reference to the element goes first, so that `body` changes the fields' own buffers in place.
    storage = []
    body(&value)
    if !value.isEmpty { storage = [value] }
  }
}

extension OutOfLine: Equatable where Fields: Equatable {}

/// The rarely set fields an `OutOfLine` holds: a value with all of them unset, and a way to tell.
protocol OutOfLineFields: Sendable {
  init()
  var isEmpty: Bool { get }
}
