// Writes a brotli (quality 11) and a gzip (level 9) copy next to each script and stylesheet of
// build/client/assets, once per build, for express-static-gzip to send (server/app.ts). Compressing
// on every request with the compression middleware's defaults sent the React bundle as 68 KB of
// brotli where quality 11 gives 58 KB (decision 016, addendum 4). A copy that is not smaller is
// not written.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const dir = path.resolve("build/client/assets");
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json"]);
/** Below this size compression saves less than it costs (the same floor as server/http/precompressed.ts). */
const MIN_BYTES = 1024;

const names = (await readdir(dir)).filter((n) => COMPRESSIBLE.has(path.extname(n)));
let plain = 0;
let sent = 0;
await Promise.all(
  names.map(async (name) => {
    const file = path.join(dir, name);
    const body = await readFile(file);
    plain += body.length;
    if (body.length < MIN_BYTES) {
      sent += body.length;
      return;
    }
    const [br, gz] = await Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzipAsync(body, { level: 9 }),
    ]);
    if (br.length < body.length) await writeFile(`${file}.br`, br);
    if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
    sent += Math.min(br.length, body.length);
  }),
);
console.log(`precompressed ${names.length} assets: ${(plain / 1024).toFixed(0)} KB, ${(sent / 1024).toFixed(0)} KB as brotli`);
