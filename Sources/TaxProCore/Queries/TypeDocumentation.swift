extension TaxType {
  /// One sentence on what the type holds and how it is written, for completion, hover and the REPL's `:help`.
  public var summary: String {
    switch self {
    case .money: "An amount in dollars and cents, kept exact: `$85,000`, `$0.50`, `-$12`."
    case .rate: "A percentage: `13%`, `5.05%`. Added to an amount it means that percentage of the amount."
    case .number: "A plain number: `3`, `2.5`, `1_000`."
    case .bool: "`true` or `false`."
    case .text: "Text in double quotes: `\"Ontario\"`."
    case .province: "A province or territory: `ON`, `QC`, …; its parameters are read with `p.income_tax`."
    case .brackets: "A bracket table of thresholds and marginal rates, used with `tax`, `marginal_rate` and `average_rate`."
    case .federal: "The federal jurisdiction; only its parameters are values (`federal.income_tax`)."
    case .error: ""
    }
  }
}
