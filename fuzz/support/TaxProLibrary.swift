// What SwiftPM generates for a target with resources, for builds outside SwiftPM (the fuzz targets): the library is
// then found through TAXPRO_LIBRARY, which fuzz/run.sh sets.
import Foundation

extension Foundation.Bundle {
  static let module: Bundle = Bundle.main
}
