// The language server (see ARCHITECTURE.md).
