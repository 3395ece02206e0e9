public enum TaxProCore {}
