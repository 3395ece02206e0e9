/// Why a file of the user's could not be written or read.
///
/// Each case names the path and says what went wrong in words the REPL can show as they are.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  case cannotCreateDirectory(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  case cannotRead(path: String, reason: String)
  /// A damaged file stands where a save would go and could not be moved aside, so it was left untouched.
  case damagedFileInTheWay(path: String, reason: String)
  case cannotEncode(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotCreateDirectory(let path, let reason): return "cannot create directory \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
    case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
    case .damagedFileInTheWay(let path, let reason):
      return "\(path) is damaged (\(reason)) and could not be moved aside; it was not replaced"
    case .cannotEncode(let path, let reason): return "cannot encode the data for \(path): \(reason)"
    }
  }
}
