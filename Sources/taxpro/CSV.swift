/// A small RFC 4180 reader: fields separated by commas, optionally quoted with `"` (a quote inside doubled).
struct CSVReader {
  let bytes: [UInt8]
  var index = 0
  /// 1-based line number of the record being read.
  var line = 1

  init(bytes: [UInt8]) {
    self.bytes = bytes
    // Skip a byte-order mark.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
  }

  var atEnd: Bool { index >= bytes.count }

  /// The next record's fields, or nil at the end. Blank lines are skipped.
  mutating func next() -> (line: Int, fields: [String])? {
    while index < bytes.count, bytes[index] == 10 || bytes[index] == 13 {
      if bytes[index] == 10 { line += 1 }
      index += 1
    }
    guard index < bytes.count else { return nil }
    let startLine = line
    var fields: [String] = []
    var field: [UInt8] = []
    var quoted = false
    while index < bytes.count {
      let byte = bytes[index]
      if quoted {
        if byte == 34 {
          if index + 1 < bytes.count, bytes[index + 1] == 34 {
            field.append(34)
            index += 2
            continue
          }
          quoted = false
          index += 1
          continue
        }
        if byte == 10 { line += 1 }
        field.append(byte)
        index += 1
        continue
      }
      switch byte {
      case 34 where field.isEmpty:
        quoted = true
        index += 1
      case 44:
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        index += 1
      case 10, 13:
        if byte == 13, index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
        index += 1
        line += 1
        fields.append(String(decoding: field, as: UTF8.self))
        return (startLine, fields)
      default:
        field.append(byte)
        index += 1
      }
    }
    fields.append(String(decoding: field, as: UTF8.self))
    return (startLine, fields)
  }
}
