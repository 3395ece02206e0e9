import Foundation
import LanguageServerProtocol
import TaxProLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds and reads the `.tax` files of the workspace's folders on a thread of its own, so that `initialize` is answered
/// at once and the documents the editor opens are checked without waiting for a large folder to be read.
///
/// A folder is read as a project only if it looks like one: not `/`, not a folder directly under it (`/usr`, `/home`)
/// and not the home directory, which editors pass as the root when they find nothing better; and only if it is read
/// within the bounds (entries, `.tax` files, depth, time). A folder that is none of these is not read at all (its
/// files would be checked as one program with the user's, and their diagnostics published, by the hundred): the
/// server reads the folders of the documents opened in it instead (`Workspace.includeFolder(of:)`).
final class WorkspaceScanner: @unchecked Sendable {
  /// How much of a folder is read before it is judged too large to be a project.
  struct Bounds: Sendable {
    var entries = 100_000
    var files = 2_000
    var depth = 16
    var time = Duration.seconds(3)
    /// A larger `.tax` file is left out (it is no source a person wrote).
    var fileSize = 16 << 20
  }

  /// A file found and read.
  struct File: Sendable {
    var path: String
    var bytes: [UInt8]
  }

  /// What reading the folders found.
  struct Result: Sendable {
    /// The folders read whole: every `.tax` file under them is in `files`.
    var projects: [String] = []
    var files: [File] = []
    /// For the log: why folders were not read, or not read whole.
    var notes: [String] = []
    var elapsed = Duration.zero
  }

  private let condition = NSCondition()
  private var finished: Result?

  /// Starts reading `roots` (standardized absolute paths); `done` is called on the scanner's thread when it has.
  /// `willFinish`, if given, is called on that thread once the roots are read and before the result is handed over
  /// (a test holds the scan there, to show that nothing the client is waiting for waits for it).
  init(
    roots: [String], bounds: Bounds = Bounds(), willFinish: (@Sendable () -> Void)? = nil,
    done: @escaping @Sendable () -> Void
  ) {
    let thread = Thread { [self] in
      let result = WorkspaceScanner.scan(roots, bounds: bounds)
      willFinish?()
      condition.lock()
      finished = result
      condition.broadcast()
      condition.unlock()
      done()
    }
    thread.name = "TaxPro workspace scan"
    thread.qualityOfService = .utility
    thread.start()
  }

  /// The result, waiting for it at most `seconds`; nil if the scan is still going.
  func result(waitingAtMost seconds: Double) -> Result? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while finished == nil {
      if !condition.wait(until: deadline) { break }
    }
    return finished
  }

  /// Whether `path` is too broad to be a project: `/`, a folder directly under it, or the home directory.
  static func isBroad(_ path: String, home: String? = environmentValue("HOME")) -> Bool {
    let components = path.split(separator: "/")
    if components.count <= 1 { return true }
    if let home, !home.isEmpty, Workspace.standardizedPath(home) == path { return true }
    return false
  }

  static func scan(_ roots: [String], bounds: Bounds) -> Result {
    let clock = ContinuousClock()
    let start = clock.now
    var result = Result()
    for root in roots {
      if isBroad(root) {
        result.notes.append("\(root) is not read as a project (too broad); the folders of the files opened in it are")
        continue
      }
      switch walk(root, bounds: bounds, deadline: start + bounds.time) {
      case .success(let files):
        result.projects.append(root)
        result.files += files
      case .failure(let stop):
        result.notes.append(
          "\(root) is not read as a project (\(stop.reason)); the folders of the files opened in it are")
      }
    }
    result.elapsed = clock.now - start
    return result
  }

  struct Stop: Error {
    var reason: String
  }

  /// Every `.tax` file under `root`, breadth first, skipping hidden folders and `node_modules`; a failure once a bound
  /// is passed.
  static func walk(_ root: String, bounds: Bounds, deadline: ContinuousClock.Instant) -> Swift.Result<[File], Stop> {
    var files: [File] = []
    var entries = 0
    var level: [String] = [root]
    var depth = 0
    while !level.isEmpty {
      var next: [String] = []
      for folder in level {
        guard let directory = opendir(folder) else { continue }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
          let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
          }
          if name == "." || name == ".." { continue }
          entries += 1
          if entries > bounds.entries { return .failure(Stop(reason: "more than \(bounds.entries) entries")) }
          if entries % 1024 == 0, ContinuousClock.now > deadline {
            return .failure(Stop(reason: "not read within \(bounds.time)"))
          }
          if name.hasPrefix(".") || name == "node_modules" { continue }
          let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
          var kind = Int32(entry.pointee.d_type)
          if kind == Int32(DT_UNKNOWN) {
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            kind = (status.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : Int32(DT_REG)
          }
          if kind == Int32(DT_DIR) {
            next.append(path)
          } else if name.hasSuffix(".tax"), kind == Int32(DT_REG) || kind == Int32(DT_LNK) {
            if files.count >= bounds.files { return .failure(Stop(reason: "more than \(bounds.files) .tax files")) }
            if let bytes = read(path, limit: bounds.fileSize) { files.append(File(path: path, bytes: bytes)) }
          }
        }
      }
      depth += 1
      if !next.isEmpty, depth > bounds.depth { return .failure(Stop(reason: "deeper than \(bounds.depth) folders")) }
      level = next.sorted()
    }
    return .success(files.sorted { $0.path < $1.path })
  }

  /// The contents of a file no larger than `limit`; nil if it cannot be read or is larger.
  static func read(_ path: String, limit: Int) -> [UInt8]? {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) <= limit,
      let data = FileManager.default.contents(atPath: path)
    else { return nil }
    return [UInt8](data)
  }
}

/// Sent by the server to itself (`Connection.post`) when a workspace scan is done. A client that sends it only makes
/// the server look whether a scan is done.
struct WorkspaceScannedNotification: NotificationType {
  static let method = "$/taxpro/workspaceScanned"
}
