#!/usr/bin/env bash
# k6_golden.sh: run the k6 script corpus (internal/cli/testdata/k6scripts)
# under a real k6 against the corpus' local target and keep k6's
# --summary-export files as golden summaries, in
# internal/cli/testdata/k6scripts/golden/k6-VERSION/; then check
# stampede's summaries against them (TestK6GoldenSummaries, which also
# runs without k6 in CI).
#
#   K6=/path/to/k6 bash bench/k6_golden.sh      # k6 from: go install go.k6.io/k6@v1.8.1
set -euo pipefail
cd "$(dirname "$0")/.."
K6=${K6:?set K6 to a k6 binary}
K6=$(realpath "$K6") go test ./internal/cli/ -run TestK6GoldenSummaries -update-k6-golden -count=1 -v | grep -E '^(=== RUN|--- |ok|FAIL)'
