// JSON-RPC framing and LSP types (see ARCHITECTURE.md).
