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
  /// The file was written by a newer TaxPro, in a layout this one cannot read; it is left as it is.
  case newerFormat(path: String, version: Int, supported: Int)

  /// The cause alone, without the path.
  public var reason: String {
    switch self {
    case .cannotCreateDirectory(_, let reason), .cannotWrite(_, let reason), .cannotRead(_, let reason),
      .damagedFileInTheWay(_, let reason), .cannotEncode(_, let reason):
      return reason
    case .newerFormat(_, let version, let supported):
      return "written by a newer version of TaxPro (format \(version); this one reads up to \(supported))"
    }
  }

  public var description: String {
    switch self {
    case .cannotCreateDirectory(let path, let reason): return "cannot create directory \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
    case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
    case .damagedFileInTheWay(let path, let reason):
      return "\(path) is damaged (\(reason)) and could not be moved aside; it was not replaced"
    case .cannotEncode(let path, let reason): return "cannot encode the data for \(path): \(reason)"
    case .newerFormat(let path, _, _):
      return "\(path) was \(reason); it is left as it is and was not changed"
    }
  }
}
