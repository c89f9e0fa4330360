# Run by the build (cmake -P) after s3fault is linked: the texts the package ships that are made
# from the binary's own command definitions, and the compressed files Debian wants.
# Inputs: BINARY, OUTPUT_DIR, CHANGELOG.
set(man_dir ${OUTPUT_DIR}/man1)
file(REMOVE_RECURSE ${man_dir})
execute_process(COMMAND ${BINARY} manpages ${man_dir} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BINARY} manpages ${man_dir}: exit ${status}")
endif()
execute_process(COMMAND ${BINARY} completion bash OUTPUT_FILE ${OUTPUT_DIR}/s3fault.bash
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BINARY} completion bash: exit ${status}")
endif()
configure_file(${CHANGELOG} ${OUTPUT_DIR}/changelog COPYONLY)
# -n: no name or time stamp inside, so the same text gives the same bytes.
file(GLOB pages ${man_dir}/*.1)
execute_process(COMMAND gzip -9nf ${pages} ${OUTPUT_DIR}/changelog RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gzip: exit ${status}")
endif()
