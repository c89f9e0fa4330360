#!/bin/bash
# Gates every example writer in examples/writers/ (and the built-in writers naive and careful)
# with `s3fault gate --writer` and regenerates docs/writers.md from the reports in docs/writers/.
# The options are those of tests/gate/gate-readers.sh, which does the work (see its --help).
#
#   tests/gate/gate-writers.sh [--bin PATH] [--out DIR] [--upstream URL --access-key K
#                              --secret-key S] [--no-render]
exec "$(dirname "${BASH_SOURCE[0]}")/gate-readers.sh" --writers "$@"
