/// What TaxPro says about itself.
public enum TaxPro {
  /// The one place the version is written: `taxpro --version`, the REPL's banner and the language server's
  /// `serverInfo` all read it.
  public static let version = "0.1.0"
}
