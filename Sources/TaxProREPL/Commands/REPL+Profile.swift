import Foundation
import TaxProCore

extension REPL {
  /// Tells about a damaged profile or records file before the first prompt, so the user learns of it (and where it
  /// was kept) before anything is written over its place.
  func reportDamagedFiles() {
    guard let files = configuration.userFiles else { return }
    switch files.profile.load() {
    case .damaged(let damage): reportDamage(damage, what: "profile", path: files.profilePath)
    case .newerFormat(let version, let supported):
      reportNewer(what: "profile", path: files.profilePath, version: version, supported: supported)
    default: break
    }
    switch files.records.load() {
    case .damaged(let damage): reportDamage(damage, what: "records", path: files.recordsPath)
    case .newerFormat(let version, let supported):
      reportNewer(what: "records", path: files.recordsPath, version: version, supported: supported)
    default: break
    }
  }

  /// A file a newer TaxPro wrote: kept as it is, and this session will not change it.
  func reportNewer(what: String, path: String, version: Int, supported: Int) {
    let message =
      "your \(what) file \(path) was written by a newer version of TaxPro (format \(version); this one reads up to "
      + "\(supported)); it is left as it is, and this session will not change it"
    output.writeError(style("warning:", .error) + " " + message + "\n")
  }

  func reportDamage(_ damage: Damage, what: String, path: String) {
    var message = "your \(what) file \(path) is damaged (\(damage.reason))"
    if let keptAt = damage.keptAt {
      message += "; it was kept as \(keptAt), and a new \(what) file will be started"
    } else {
      message += "; it could not be moved aside and was left in place, and will not be written over"
    }
    output.writeError(style("warning:", .error) + " " + message + "\n")
  }

  /// The profile on disk now; damage is reported (the damaged file is moved aside by the load).
  func loadProfile() -> Profile? {
    configuration.userFiles.flatMap { loadStored($0.profile, what: "profile", empty: Profile()) }
  }

  /// One of the user's files as it is on disk now (`empty` when there is none yet); damage is reported (the load
  /// moves the damaged file aside); nil when it cannot be read.
  func loadStored<Document: StoredDocument>(_ store: JSONFileStore<Document>, what: String, empty: Document) -> Document? {
    switch store.load() {
    case .ok(let document): return document
    case .missing: return empty
    case .damaged(let damage):
      reportDamage(damage, what: what, path: store.path)
      return empty
    case .unreadable(let reason):
      complain("cannot read \(store.path): \(reason)")
      return nil
    case .newerFormat(let version, let supported):
      reportNewer(what: what, path: store.path, version: version, supported: supported)
      return nil
    }
  }

  func profileCommand(_ argument: String) {
    guard let files = configuration.userFiles else {
      complain("there is nowhere to keep a profile (neither XDG_DATA_HOME nor HOME is set)")
      return
    }
    let words = argument.trimmed
    if words.isEmpty {
      guard let profile = loadProfile() else { return }
      if profile.values.isEmpty {
        note("your profile is empty; set a value with :profile income $85,000 (then :ask offers it)")
        return
      }
      let rows = profile.values.keys.sorted().map { [style($0, .name), profile.values[$0] ?? ""] }
      say(TextLayout.table(rows, indent: "  ").joined(separator: "\n"))
      note("kept in \(files.profilePath)")
      return
    }
    let name = String(words.prefix { !$0.isWhitespace })
    let rest = words.dropFirst(name.count).trimmed
    if name == "clear" {
      guard !rest.isEmpty else {
        complain("usage: :profile clear NAME")
        return
      }
      store("profile", at: files.profilePath) { try files.profile.setValue(nil, for: rest) }
      say("removed \(rest) from your profile")
      return
    }
    guard REPL.isName(name) else {
      complain("a profile name is a name such as income or province, not '\(name)'")
      return
    }
    if rest.isEmpty {
      guard let profile = loadProfile() else { return }
      if let value = profile.values[name] {
        say(style(name, .name) + " = " + style(value, .value))
      } else {
        note("\(name) is not in your profile")
      }
      return
    }
    var value: Value
    let input = inputType(named: name)
    if let input, let taken = formValue(rest, for: input.type) {
      switch taken {
      case .failure(let problem):
        complain(problem.message)
        return
      case .success(let given): value = given
      }
    } else {
      switch session.compile(rest, name: "<profile>", locals: []) {
      case .failure(let list):
        report(list.diagnostics)
        return
      case .success(let typed):
        switch session.evaluate(typed, locals: []) {
        case .failure(let list):
          report(list.diagnostics)
          return
        case .success(let computed): value = computed
        }
      }
    }
    // A value :ask could never offer is refused, with the reason, rather than kept to be silently ignored.
    if let input, value.type != input.type {
      var message = "\(name) is \(input.type) (an input of \(input.formula)), but '\(rest)' is \(value.type)"
      if input.type == .province { message += "; the choices are \(provinceChoices)" }
      complain(message)
      return
    }
    let literal = REPL.literal(value)
    if store("profile", at: files.profilePath, { try files.profile.setValue(literal, for: name) }) {
      say(style(name, .name) + " = " + style(ValueFormatter.format(value), .value) + style(" (saved)", .note))
    }
  }

  /// Runs a write to one of the user's files, reporting damage found (and moved aside) on the way, and failures;
  /// true when it was written.
  @discardableResult
  func store(_ what: String, at path: String, _ write: () throws -> Damage?) -> Bool {
    do {
      if let damage = try write() { reportDamage(damage, what: what, path: path) }
      return true
    } catch {
      complain("\(error)")
      return false
    }
  }

  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
      return false
    }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }
  }
}
