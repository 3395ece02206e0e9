import Foundation
import PackagePlugin

/// Writes the commit `taxpro` is built from into the executable, for `taxpro --version`. A prebuild command runs
/// before every build — so a new commit is seen though no source changed — and `record-commit.sh` (beside this file,
/// where its rules are) asks git and writes `BuildCommit.swift`, or `unknown` outside git.
@main
struct RecordBuildCommit: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let script = context.package.directoryURL.appending(path: "Plugins/RecordBuildCommit/record-commit.sh")
    let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
    let inherited = ProcessInfo.processInfo.environment
    var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin"]
    if let commit = inherited["TAXPRO_COMMIT"] { environment["TAXPRO_COMMIT"] = commit }
    return [
      .prebuildCommand(
        displayName: "Recording the commit taxpro is built from",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: [script.path, context.package.directoryURL.path, output.path],
        environment: environment,
        outputFilesDirectory: output)
    ]
  }
}
