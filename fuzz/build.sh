#!/usr/bin/env bash
# Builds the libFuzzer targets into fuzz/out/ (outside SwiftPM: libFuzzer needs -sanitize=fuzzer on every file).
#   fuzz/build.sh            all targets
#   fuzz/build.sh core lsp   some
# The modules a target exercises are compiled as they are in the package (same module names, so their sources are
# unchanged), with libFuzzer's coverage instrumentation and AddressSanitizer, optimized, with debug information for
# readable crash reports; the target (fuzz/targets/TARGET.swift) imports them and links them in.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=fuzz/out/modules
mkdir -p "$modules"
flags=(-parse-as-library -swift-version 6 -sanitize=fuzzer,address -O -g -enable-testing)

# build_module NAME: Sources/NAME compiled into one object and a module others can import.
build_module() {
  local name=$1
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  local extra=()
  [ -f "fuzz/support/$name.swift" ] && extra+=("fuzz/support/$name.swift")
  if [ "$name" = TaxProLibrary ]; then
    # The library's .tax files compiled in, as the EmbedStandardLibrary plugin does in SwiftPM builds.
    swiftc -O Sources/LibraryEmbedder/main.swift -o fuzz/out/LibraryEmbedder
    fuzz/out/LibraryEmbedder Sources/TaxProLibrary/Resources fuzz/out/EmbeddedLibrary.swift
    extra+=(fuzz/out/EmbeddedLibrary.swift)
  fi
  echo "fuzz: compiling $name (${#sources[@]} files)" >&2
  swiftc "${flags[@]}" -wmo -module-name "$name" -I "$modules" -emit-module \
    -emit-module-path "$modules/$name.swiftmodule" -emit-object -o "$modules/$name.o" "${sources[@]}" "${extra[@]}"
}

# The modules of each target, dependencies first.
modules_for() {
  case "$1" in
    core) echo TaxProCore ;;
    lsp) echo JSONValue LanguageServerProtocol ;;
    server) echo TaxProCore JSONValue LanguageServerProtocol TaxProLibrary TaxProServer ;;
    incremental) echo TaxProCore ;;
    *) echo "build.sh: unknown target '$1' (core, lsp, server, incremental)" >&2; return 2 ;;
  esac
}

targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(core lsp server incremental)
fi
built=" "
for target in "${targets[@]}"; do
  objects=()
  for module in $(modules_for "$target"); do
    if [[ "$built" != *" $module "* ]]; then
      build_module "$module"
      built+="$module "
    fi
    objects+=("$modules/$module.o")
  done
  echo "fuzz: linking $target" >&2
  # Files compiled with a target: the library loader, the stream in pieces, and for the differential target the tests'
  # program printer.
  helpers=()
  case "$target" in
    core) helpers+=(fuzz/support/LibraryFiles.swift) ;;
    lsp | server) helpers+=(fuzz/support/PieceSource.swift) ;;
    incremental) helpers+=(fuzz/support/LibraryFiles.swift Tests/TaxProLibraryTests/ProgramDump.swift) ;;
  esac
  swiftc "${flags[@]}" -I "$modules" "fuzz/targets/$target.swift" "${helpers[@]}" "${objects[@]}" -o "fuzz/out/$target"
done
