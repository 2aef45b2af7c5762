/**
 * `import code from "./file.js?inline-script"`: the file's default export (one function),
 * minified by esbuild and given as a string, for a script the server writes into the HTML
 * (app/lib/hydration-bootstrap.js). Build time only; the running server needs no minifier.
 */
import { readFile } from "node:fs/promises";
import { type Plugin, transformWithEsbuild } from "vite";

const SUFFIX = "?inline-script";
// esbuild drops an unused expression and renames an exported one: the function is minified as
// the value of an assignment, which is then taken off.
const HOLDER = "globalThis.__inlineScript=";

export function inlineScript(): Plugin {
  return {
    name: "museum:inline-script",
    async load(id) {
      if (!id.endsWith(SUFFIX)) return null;
      const file = id.slice(0, -SUFFIX.length);
      this.addWatchFile(file);
      const source = await readFile(file, "utf8");
      if ((source.match(/^export default /gm) ?? []).length !== 1 || /^\s*(?:import|export)\s/m.test(source.replace(/^export default /m, ""))) {
        this.error(`${file}: an inline script is one \`export default\` expression and imports nothing`);
      }
      const { code } = await transformWithEsbuild(source.replace(/^export default /m, HOLDER), file, { loader: "js", minify: true, target: "es2020", legalComments: "none" });
      const body = code.trim().replace(/;$/, "");
      if (!body.startsWith(HOLDER)) this.error(`${file}: esbuild's output does not start with the function`);
      return `export default ${JSON.stringify(body.slice(HOLDER.length))};`;
    },
  };
}
