import { format } from "node:util";
import { describe, expect, it } from "vitest";
import { runReadmeExample } from "../src/testing/index.js";

const fence = "```";
const readme = (body: string) => `# A package\n\nText.\n\n${fence}ts\n${body}${fence}\n`;
const modules = { "@x/pkg": { double: (n: number) => 2 * n, name: "pkg" } };

describe("runReadmeExample", () => {
  it("runs the block holding the marker with its imports passed in and returns what it printed beside its // lines", () => {
    const text =
      readme('import { name } from "@x/pkg";\nconsole.log(name);\n// pkg\n') +
      readme(
        'import { double } from "@x/pkg";\nconsole.log(double(21), { a: [1] });\n// 42 { a: [ 1 ] }\n',
      );
    const run = runReadmeExample({ readme: text, contains: "double(21)", modules, format });
    expect(run).toEqual({ lines: 3, printed: ["42 { a: [ 1 ] }"], expected: ["42 { a: [ 1 ] }"] });
  });

  it("reports a README that says something else than the code prints", () => {
    const text = readme('import { double } from "@x/pkg";\nconsole.log(double(2));\n// 5\n');
    const run = runReadmeExample({ readme: text, contains: "double", modules, format });
    expect(run.printed).toEqual(["4"]);
    expect(run.printed).not.toEqual(run.expected);
  });

  it("refuses a missing block, an unknown module, an unexported name and a malformed import", () => {
    const ok = 'import { double } from "@x/pkg";\nconsole.log(double(2));\n';
    expect(() =>
      runReadmeExample({ readme: readme(ok), contains: "nope", modules, format }),
    ).toThrow(/no ```ts block of the README contains "nope"/);
    const other = readme('import { double } from "@x/other";\n');
    expect(() => runReadmeExample({ readme: other, contains: "double", modules, format })).toThrow(
      /imports from "@x\/other", not given in modules/,
    );
    const missing = readme('import { triple } from "@x/pkg";\n');
    expect(() =>
      runReadmeExample({ readme: missing, contains: "triple", modules, format }),
    ).toThrow(/"@x\/pkg" exports no "triple"/);
    const star = readme('import * as pkg from "@x/pkg";\n');
    expect(() => runReadmeExample({ readme: star, contains: "pkg", modules, format })).toThrow(
      /is not of the form import \{ a, b \} from "x"/,
    );
  });
});
