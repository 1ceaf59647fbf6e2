#!/bin/sh
# Compiles the C++ rules core (../src/rules, the engine, the study's review, their JSON) and web/wasm/SemisWasm.cpp
# to one ES module with the WebAssembly inlined: web/src/gen/semis-core.js (not committed).
# Needs Debian's emscripten (tools/packages/web.txt).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
out="$here/src/gen"
mkdir -p "$out" "$here/.wasm-include"
# Only the two header-only libraries the core needs, not all of /usr/include (emscripten has its own libc).
ln -sfn /usr/include/tl "$here/.wasm-include/tl"
ln -sfn /usr/include/nlohmann "$here/.wasm-include/nlohmann"
# The opening books, compiled in as the program has them (src/engine/BookData.cmake).
mkdir -p "$here/.wasm-gen"
cmake -DBOOK_DIR="$root/data/book" -DBOOK_TEMPLATE="$root/src/engine/BookData.cpp.in" \
  -DBOOK_OUT="$here/.wasm-gen/BookData.cpp" -P "$root/src/engine/BookData.cmake"
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
em++ -std=c++20 -O2 -fno-exceptions \
  -I"$root/src" -isystem "$here/.wasm-include" \
  "$root/src/rules/Rules.cpp" "$root/src/rules/Board.cpp" "$root/src/rules/Game.cpp" \
  "$root/src/rules/Notation.cpp" "$root/src/protocol/Json.cpp" "$root/src/protocol/GameJson.cpp" "$root/src/views/Hints.cpp" \
  "$root/src/engine/Search.cpp" "$root/src/engine/FastBoard.cpp" "$root/src/engine/Solver.cpp" "$root/src/engine/SolverSearch.cpp" \
  "$root/src/engine/Hint.cpp" "$root/src/engine/Levels.cpp" "$root/src/engine/Egdb.cpp" "$root/src/engine/EgdbBuilder.cpp" "$root/src/engine/EgdbRetro.cpp" \
  "$root/src/engine/Book.cpp" "$here/.wasm-gen/BookData.cpp" "$root/src/study/Review.cpp" "$root/src/views/Study.cpp" \
  "$root/src/study/Daily.cpp" \
  "$here/wasm/SemisWasm.cpp" \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createSemisCore -sSINGLE_FILE=1 \
  -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 \
  -sEXPORTED_FUNCTIONS=_sm_rules,_sm_check_rules,_sm_new,_sm_state,_sm_play,_sm_swap,_sm_split,_sm_preview,_sm_best,_sm_hint,_sm_ai,_sm_new_at,_sm_values,_sm_review,_sm_record \
  -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString \
  -o "$out/semis-core.js"
echo "built $out/semis-core.js"
cat > "$out/semis-core.d.ts" <<'DTS'
export interface CoreModule {
  ccall(name: string, ret: 'string', argTypes: string[], args: unknown[]): string;
}
declare const createSemisCore: () => Promise<CoreModule>;
export default createSemisCore;
DTS
