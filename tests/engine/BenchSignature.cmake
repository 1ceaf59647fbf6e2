# `semis bench` searches a fixed set of positions; its "Nodes searched" line is the search's
# signature. Runs it twice (the same number: the search is deterministic), then compares the number
# with the one the repository pins in bench/signature, so no commit changes the search unnoticed.
# A commit that changes it on purpose writes the new number there and says so in its message with a
# line "Bench: N" (as Stockfish's commits do); once bench/signature is committed, this checks that
# the commit that last changed it carries that line.
# -DSEMIS=<semis binary> -DSOURCE_DIR=<the project's root>
set(file "${SOURCE_DIR}/bench/signature")
foreach(run 1 2)
  execute_process(COMMAND ${SEMIS} bench OUTPUT_VARIABLE out${run} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "semis bench failed: ${rc}")
  endif()
  string(REGEX MATCH "Nodes searched : ([0-9]+)" line "${out${run}}")
  if(line STREQUAL "")
    message(FATAL_ERROR "no signature in the output:\n${out${run}}")
  endif()
  set(nodes${run} "${CMAKE_MATCH_1}")
endforeach()
if(NOT nodes1 STREQUAL nodes2)
  message(FATAL_ERROR "bench is not deterministic: ${nodes1} nodes, then ${nodes2}")
endif()

file(STRINGS "${file}" pinned REGEX "^[0-9]+$" LIMIT_COUNT 1)
if(NOT pinned MATCHES "^[0-9]+$")
  message(FATAL_ERROR "${file} holds no number (one line: the nodes `semis bench` searches)")
endif()
if(NOT nodes1 STREQUAL pinned)
  message(FATAL_ERROR
    "semis bench searched ${nodes1} nodes; bench/signature says ${pinned}.\n"
    "The search's node count changed. If this commit changes the search on purpose, write ${nodes1} "
    "into bench/signature and add the line\n  Bench: ${nodes1}\nto the commit message. If it should "
    "not change the search (a refactoring, a speed-up), it does: find out why.")
endif()

# The commit that last changed bench/signature says so (skipped outside a git clone, in a shallow
# one, and while bench/signature has uncommitted changes: the check applies once it is committed).
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C "${SOURCE_DIR}" rev-parse --is-shallow-repository
                  OUTPUT_VARIABLE shallow OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE gitRc ERROR_QUIET)
  execute_process(COMMAND ${GIT} -C "${SOURCE_DIR}" diff --quiet HEAD -- bench/signature
                  RESULT_VARIABLE edited ERROR_QUIET)
  if(gitRc EQUAL 0 AND shallow STREQUAL "false" AND edited EQUAL 0)
    execute_process(COMMAND ${GIT} -C "${SOURCE_DIR}" log -1 --format=%h%n%B -- bench/signature
                    OUTPUT_VARIABLE last ERROR_QUIET)
    string(REGEX MATCH "^[0-9a-f]+" commit "${last}")
    if(NOT commit STREQUAL "" AND NOT "\n${last}\n" MATCHES "\nBench: ${pinned}[ \t]*\n")
      message(FATAL_ERROR
        "commit ${commit} changed bench/signature to ${pinned} but its message has no line "
        "'Bench: ${pinned}': amend it (git commit --amend) to say so.")
    endif()
  else()
    message(STATUS "bench/signature's commit message not checked (no git history, or the file is being edited)")
  endif()
endif()
message(STATUS "Nodes searched : ${nodes1} (bench/signature)")
