// Shared by the fuzz targets that read framed streams (compiled into each by build.sh).
import LanguageServerProtocol

/// Hands out the input in pieces whose sizes come from the input itself, as a pipe would.
struct PieceSource: ByteSource {
  let bytes: [UInt8]
  var position = 0
  var step = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard position < bytes.count, buffer.count > 0 else { return 0 }
    step += 1
    let piece = 1 + (Int(bytes[(position * 31 + step) % bytes.count]) % 97)
    let count = min(piece, buffer.count, bytes.count - position)
    for index in 0..<count { buffer[index] = bytes[position + index] }
    position += count
    return count
  }
}
