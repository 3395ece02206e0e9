import Foundation
@testable import LanguageServerProtocol
import TaxProCore
import Testing

@testable import TaxProServer

/// Which analyses the analyzer keeps alive while it checks: each one holds a whole program, so two at once is twice the
/// server's memory at its peak.
struct AnalyzerMemoryTests {
  /// An analyzer that pushes nothing (jobs without targets) and holds each check before its tests until a request
  /// waits for it, so that a test can look at what is alive while a check is under way.
  static func analyzer() -> (Analyzer, Pipe) {
    let sink = Pipe()
    let connection = Connection(
      input: FileDescriptorByteSource(fileDescriptor: Pipe().fileHandleForReading.fileDescriptor),
      output: FileDescriptorByteSink(fileDescriptor: sink.fileHandleForWriting.fileDescriptor), log: { _ in })
    return (Analyzer(connection: connection, log: { _ in }, timing: false, holdsChecks: true), sink)
  }

  static func job(_ generation: Int, _ documents: [(id: Int, text: String)]) -> Analyzer.Job {
    var uris: [FileID: LSP.DocumentURI] = [:]
    var inputs: [Analyzer.Input] = []
    for document in documents {
      let id = FileID(document.id)
      uris[id] = LSP.DocumentURI("file:///tmp/analyzer-memory/\(document.id).tax")
      inputs.append(.source(SourceFile(id: id, name: "\(document.id).tax", text: document.text)))
    }
    return Analyzer.Job(
      generation: generation, year: nil, inputs: inputs, testFiles: documents.map { FileID($0.id) }, uris: uris,
      targets: nil)
  }

  /// Waits up to two seconds for `condition`.
  static func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 2)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
  }

  static let text = (1...200).map { "let f\($0)(x: Money) -> Money = x * \($0)%\n" }.joined()

  @Test func theAnalysisOfAClosedDocumentIsFreedBeforeTheNextCheck() throws {
    let (analyzer, sink) = Self.analyzer()
    defer { try? sink.fileHandleForReading.close() }
    analyzer.submit(Self.job(1, [(100, Self.text)]))
    weak var first = analyzer.wait(for: Analyzer.Key(generation: 1, year: nil))
    #expect(first != nil)

    // The document closed and another opened: the check of the new program (held before its tests) must not keep
    // the old one alive beside it.
    analyzer.submit(Self.job(2, [(101, Self.text)]))
    #expect(Self.eventually { first == nil }, "the closed document's analysis is alive during the next check")
    let second = try #require(analyzer.wait(for: Analyzer.Key(generation: 2, year: nil)))
    #expect(second.program.trees.map(\.source.id) == [FileID(101)])
  }

  @Test func anEditedDocumentKeepsItsAnalysisForRequestsWhileItIsChecked() throws {
    let (analyzer, sink) = Self.analyzer()
    defer { try? sink.fileHandleForReading.close() }
    analyzer.submit(Self.job(1, [(100, Self.text), (101, "let a = $1\n")]))
    weak var first = analyzer.wait(for: Analyzer.Key(generation: 1, year: nil))

    // The same documents, one of them changed: completion answers from the analysis before while this one is checked.
    analyzer.submit(Self.job(2, [(100, Self.text), (101, "let a = $2\n")]))
    #expect(Self.eventually { analyzer.isScheduled(Analyzer.Key(generation: 2, year: nil)) })
    Thread.sleep(forTimeInterval: 0.05)
    #expect(first != nil)
    #expect(analyzer.latestAnalysis?.generation == 1)
    let second = try #require(analyzer.wait(for: Analyzer.Key(generation: 2, year: nil)))
    #expect(second.generation == 2)
    #expect(Self.eventually { first == nil })
  }
}
