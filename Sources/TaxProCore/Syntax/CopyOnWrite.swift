/// A value whose fields live in a one-element copy-on-write buffer, read and written as its own (`formula.name`): a
/// program keeps lists of large values (every formula's declaration, every checked formula) that a re-check copies and
/// frees, and copying one of these is then one reference, not one per field. `Documentation` does the same with a
/// buffer that is empty while there is nothing to say.
@dynamicMemberLookup
public struct CopyOnWrite<Fields> {
  /// The one set of fields.
  @usableFromInline var storage: [Fields]

  init(_ fields: Fields) { storage = [fields] }

  @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
    get { storage[0][keyPath: field] }
    set { storage[0][keyPath: field] = newValue }
  }
}

extension CopyOnWrite: Sendable where Fields: Sendable {}
