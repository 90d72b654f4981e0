#!/usr/bin/env bash
# Create packages/NAME from the shared template: package.json with an exports map, a three-line
# tsconfig, tsup and vitest configs that import the presets in tooling/, an empty src/index.ts and
# the root LICENSE (every tarball carries its own; tests/artifacts checks they match).
set -euo pipefail
name=${1:?usage: new-package.sh NAME "description" [dep ...]}
desc=${2:?usage: new-package.sh NAME "description" [dep ...]}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/packages/$name"
[ -e "$dir" ] && { echo "new-package.sh: $dir exists" >&2; exit 2; }
mkdir -p "$dir/src" "$dir/test" "$dir/bench"
deps=""
for d in "$@"; do deps="$deps\"$d\": \"workspace:^\","; done
deps="{${deps%,}}"
node -e '
const [name, desc, deps] = process.argv.slice(1);
const pkg = {
  name: `@sched/${name}`,
  version: "0.1.0",
  description: desc,
  keywords: ["scheduling"],
  license: "MIT",
  type: "module",
  sideEffects: false,
  exports: {
    ".": {
      "@sched/source": "./src/index.ts",
      import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
      require: { types: "./dist/index.d.cts", default: "./dist/index.cjs" }
    },
    "./package.json": "./package.json"
  },
  main: "./dist/index.cjs",
  module: "./dist/index.js",
  types: "./dist/index.d.ts",
  files: ["dist", "src"],
  engines: { node: ">=20.19" },
  repository: { type: "git", url: "git+https://github.com/sched-dev/sched.git", directory: `packages/${name}` },
  publishConfig: { access: "public" },
  scripts: {
    build: "tsup",
    typecheck: "tsc -p tsconfig.json",
    lint: "publint --strict",
    test: "vitest run",
    bench: "vitest bench --run"
  },
  dependencies: JSON.parse(deps),
  devDependencies: { "@sched/tooling": "workspace:*" }
};
process.stdout.write(JSON.stringify(pkg, null, 2) + "\n");
' "$name" "$desc" "$deps" > "$dir/package.json"
cat > "$dir/tsconfig.json" <<'JSON'
{
  "extends": "../../tsconfig.base.json",
  "include": ["src", "test", "bench", "*.config.ts"]
}
JSON
cat > "$dir/tsup.config.ts" <<'TS'
import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

export default defineConfig(tsupPreset({ entry: ["src/index.ts"] }));
TS
cat > "$dir/vitest.config.ts" <<'TS'
import { vitestPreset } from "@sched/tooling/vitest";
import { defineConfig } from "vitest/config";

export default defineConfig(vitestPreset());
TS
echo "export {};" > "$dir/src/index.ts"
cp "$root/LICENSE" "$dir/LICENSE"
echo "created $dir"
