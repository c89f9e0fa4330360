# Run at every build (cmake -P): writes the build's version and git commit into OUTPUT from
# TEMPLATE. configure_file rewrites OUTPUT only when the text changes, so an unchanged commit
# recompiles nothing. Inputs: SOURCE_DIR, VERSION, TEMPLATE, OUTPUT.
set(commit unknown)
set(modified "")
find_package(Git QUIET)
if(GIT_FOUND)
  # A source tree unpacked inside some other repository is not that repository's commit.
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE top
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE head_status
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source_real)
  if(NOT top STREQUAL "")
    file(REAL_PATH "${top}" top)
  endif()
  if(head_status EQUAL 0 AND NOT head STREQUAL "" AND top STREQUAL source_real)
    set(commit ${head})
    # Only tracked files count: a build directory or a scratch file inside the tree does not
    # make a different program.
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                    WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT changes STREQUAL "")
      set(modified ", modified")
    endif()
  endif()
endif()
set(S3FAULT_BUILD_VERSION "${VERSION} (commit ${commit}${modified})")
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
