// swift-tools-version:6.1
import PackageDescription

#if canImport(Glibc)
  import Glibc
#endif

/// `taxpro` is linked by the toolchain's lld with its relative relocations packed (`DT_RELR`): 34 KB of them instead
/// of 2 MB of `RELA` entries (82,000 pointers into the binary's own data, all applied at every start). `taxpro eval
/// '1+1'` took 6.86 ms before and 6.42 ms after (medians of 100, interleaved); a fresh server's first open of 4,000
/// lines, 0.5 ms less. Only where that works: lld next to `swiftc` on the PATH, and a glibc (2.36 or later) that reads `DT_RELR`;
/// elsewhere the default linker, as before.
let packedRelocations: [LinkerSetting] = {
  #if os(Linux)
    // "glibc 2.36"
    var buffer = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return [] }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = text.split(separator: " ").last.map { $0.split(separator: ".").compactMap { Int($0) } } ?? []
    guard version.count >= 2, (version[0], version[1]) >= (2, 36) else { return [] }
    let path = getenv("PATH").map { String(cString: $0) } ?? ""
    let hasLLD = path.split(separator: ":").contains { directory in
      access("\(directory)/swiftc", X_OK) == 0 && access("\(directory)/ld.lld", X_OK) == 0
    }
    guard hasLLD else { return [] }
    return [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
  #else
    return []
  #endif
}()

/// Release builds emit the metadata of the generic types each module uses with concrete arguments
/// (`_ContiguousArrayStorage<Token>`, `_DictionaryStorage<String, Span>`, …) at compile time, rather than leaving the
/// runtime to build it from mangled names on first use: a fresh process built some 200 such types, each time it
/// started. `taxpro eval '1+1'` took 3.90 ms before and 3.56 ms after, and 3.93 against 3.55 (medians of 100,
/// interleaved); `check` and `eval --csv` were unchanged. (The standard library is always built this way; other
/// modules only with this flag.)
///
/// The metadata a module still needs at run time is reached through accessor functions that are handed the
/// conformances they need, not looked up from mangled names: from a name, the runtime must check each generic
/// requirement (`String: Hashable` for a `_DictionaryStorage<String, Span>`), and the first check of each type and
/// protocol scans all 6,700 conformance records in the binary (some 350,000 instructions a scan). A fresh server that
/// opened 4,000 lines made 50 such checks, 17 of them scans, 6 million instructions of its 112, most on the threads
/// that answer `initialize` and check the standard library; with the accessors it made 2 and ran 105 million.
/// A fresh server's first open of 4,000 lines took 0.7–1.0 ms less (paired medians of 120 interleaved rounds, in two
/// runs; faster in 75 and 70 of them); `taxpro eval '1+1'`, 0.1–0.2 ms less (of 150 and 200; faster in 106 and 115),
/// as it makes few such checks; `check` of 10,000 formulas and `eval --csv` of 100,000 rows ran 0.6% and 1.2% fewer
/// instructions. The binary is 23 KB larger.
let prespecializedMetadata: [SwiftSetting] = [
  .unsafeFlags(
    [
      "-Xfrontend", "-prespecialize-generic-metadata",
      "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
    ], .when(configuration: .release))
]

let package = Package(
  name: "TaxPro",
  products: [
    .executable(name: "taxpro", targets: ["taxpro"]),
    .library(name: "TaxProCore", targets: ["TaxProCore"]),
  ],
  targets: [
    /// Syntax, semantics, evaluation and diagnostics. No I/O.
    .target(name: "TaxProCore", swiftSettings: prespecializedMetadata),
    /// The standard library `.tax` files, compiled in by the plugin below, and the importer that loads them.
    .target(
      name: "TaxProLibrary",
      dependencies: ["TaxProCore"],
      exclude: ["Resources"],
      swiftSettings: prespecializedMetadata,
      plugins: ["EmbedStandardLibrary"]
    ),
    /// Turns the library's `.tax` files into a Swift source at build time (run by the plugin, and by fuzz/build.sh).
    .executableTarget(name: "LibraryEmbedder"),
    .plugin(name: "EmbedStandardLibrary", capability: .buildTool(), dependencies: ["LibraryEmbedder"]),
    /// A JSON value, its parser and writer, and Codable over it; knows nothing of TaxPro.
    .target(name: "JSONValue", swiftSettings: prespecializedMetadata),
    /// Writes the git commit being built into the executable, for `taxpro --version` ("unknown" outside git).
    .plugin(name: "RecordBuildCommit", capability: .buildTool(), exclude: ["record-commit.sh"]),
    /// JSON-RPC 2.0 framing and LSP 3.17 types; knows nothing of TaxPro.
    .target(name: "LanguageServerProtocol", dependencies: ["JSONValue"], swiftSettings: prespecializedMetadata),
    /// The language server: documents, workspace, requests mapped to core queries.
    .target(
      name: "TaxProServer",
      dependencies: ["TaxProCore", "TaxProLibrary", "LanguageServerProtocol"],
      swiftSettings: prespecializedMetadata
    ),
    /// libedit, through pkg-config.
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    /// A small line-editor protocol with a libedit implementation and a scripted one for tests; knows nothing of TaxPro.
    .target(name: "LineEditing", dependencies: ["CEditLine", "CSignals"], swiftSettings: prespecializedMetadata),
    /// Ctrl-C and resume-after-Ctrl-Z as flags a signal handler sets: C state, defined once.
    .target(name: "CSignals"),
    /// Faults in the heap's next pages ahead of a large allocation, on a thread of its own.
    .target(name: "CHeap"),
    /// The interactive loop, its commands, its files and its charts; with LineEditing, the only code that touches the terminal.
    .target(
      name: "TaxProREPL",
      dependencies: ["TaxProCore", "TaxProLibrary", "LineEditing", "JSONValue"],
      swiftSettings: prespecializedMetadata
    ),
    /// The executable: argument handling and wiring.
    .executableTarget(
      name: "taxpro",
      dependencies: ["TaxProCore", "TaxProLibrary", "TaxProServer", "TaxProREPL", "JSONValue", "CHeap"],
      swiftSettings: prespecializedMetadata,
      linkerSettings: packedRelocations,
      plugins: ["RecordBuildCommit"]
    ),
    // Shared by the test targets (seeded randomness, a large-stack thread); no product depends on it.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "TaxProCoreTests", dependencies: ["TaxProCore", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "TaxProLibraryTests", dependencies: ["TaxProCore", "TaxProLibrary", "TestSupport"]),
    .testTarget(name: "JSONValueTests", dependencies: ["JSONValue"]),
    .testTarget(name: "LanguageServerProtocolTests", dependencies: ["LanguageServerProtocol", "TestSupport"]),
    .testTarget(name: "TaxProServerTests", dependencies: ["TaxProServer", "LanguageServerProtocol", "TestSupport"]),
    .testTarget(name: "LineEditingTests", dependencies: ["LineEditing"]),
    .testTarget(name: "TaxProREPLTests", dependencies: ["TaxProREPL", "TaxProLibrary"]),
  ]
)
