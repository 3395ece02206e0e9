/// A value whose fields live in a one-element copy-on-write buffer, read and written as its own (`formula.name`): a
/// program keeps lists of large values (every formula's declaration, every checked formula) that a re-check copies and
/// frees, and copying one of these is then one reference, not one per field. `Documentation` does the same with a
/// buffer that is empty while there is nothing to say.
///
/// It also moves lazily: an edit earlier in the file moves every declaration after it, and `shifted(by:)` only adds
/// to `offset`, which reading a field applies (a `Span` costs two additions; a tree is rebuilt, but queries read only
/// the few declarations they are about). So typing near the top of a large file neither rebuilds nor frees the trees
/// of every later formula. Every field's type says whether it holds positions (`Shiftable`) or not (`PositionFree`),
/// so none can be read unmoved by mistake.
@dynamicMemberLookup
public struct CopyOnWrite<Fields: Shiftable> {
  /// The one set of fields, where they were when stored.
  @usableFromInline var storage: [Fields]
  /// How many bytes the value has moved since (in its file: a declaration's spans are all in its file).
  @usableFromInline var offset: Int32 = 0

  init(_ fields: Fields) { storage = [fields] }

  /// The fields where they are now.
  @inlinable public var fields: Fields { offset == 0 ? storage[0] : storage[0].shifted(by: Int(offset)) }

  // Always inlined, so that the key path, a constant where a field is read, becomes a plain load (called, the
  // generic projection costs a hundred instructions and more per read).
  @inlinable public subscript<Value: PositionFree>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
    @inline(__always) get { storage[0][keyPath: field] }
    set { storage[0][keyPath: field] = newValue }
  }

  @inlinable public subscript<Value: Shiftable>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
    @inline(__always) get {
      offset == 0 ? storage[0][keyPath: field] : storage[0][keyPath: field].shifted(by: Int(offset))
    }
    set {
      settle()
      storage[0][keyPath: field] = newValue
    }
  }

  /// Stores the fields where they are now (before a field with positions is written).
  @usableFromInline mutating func settle() {
    guard offset != 0 else { return }
    storage = [fields]
    offset = 0
  }
}

extension CopyOnWrite: Shiftable {
  /// The same value `delta` bytes later (or earlier), sharing its fields: O(1), whatever the declaration's size.
  public func shifted(by delta: Int) -> CopyOnWrite {
    var moved = self
    moved.offset = Int32(truncatingIfNeeded: Int(offset) + delta)
    return moved
  }
}

extension CopyOnWrite: Sendable where Fields: Sendable {}

extension CopyOnWrite: CustomReflectable {
  /// The fields where they are now, as if stored so (for debuggers, `dump` and the tests that compare programs).
  public var customMirror: Mirror { Mirror(reflecting: fields) }
}

/// A value with positions in a file that an edit before them moves: the same value with every span `delta` bytes
/// later (or earlier).
public protocol Shiftable {
  func shifted(by delta: Int) -> Self
}

/// A value with no position in it: a moved `CopyOnWrite` gives it as stored.
public protocol PositionFree {}

extension String: PositionFree {}
extension Int: PositionFree {}
extension Bool: PositionFree {}
extension TaxType: PositionFree {}

extension Array: Shiftable where Element: Shiftable {
  public func shifted(by delta: Int) -> [Element] { map { $0.shifted(by: delta) } }
}

extension Optional: Shiftable where Wrapped: Shiftable {
  public func shifted(by delta: Int) -> Wrapped? { map { $0.shifted(by: delta) } }
}
