// Build step (`node scripts/bundle-cli.mjs <build folder>`, run by scripts/build.mjs): bundles the
// command line (<build folder>/cli/main.js and everything it imports, packages included) into one
// CommonJS file, <build folder>/bin/svc.cjs, that `bin/svc.js` compiles with V8's code cache
// (docs/architecture.md, "Command line"). Every module but the entry's own stays wrapped until its
// first import, so a command still runs the code of its own modules only; without chunks there is
// no module to resolve, and the code cache spares the compiling. The first line names the bundle by
// a hash of the rest: the key of its code cache.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const repo = new URL('..', import.meta.url).pathname;
const folder = resolve(repo, process.argv[2] ?? 'dist');
const outdir = join(folder, 'bin/');
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: repo,
  entryPoints: [join(folder, 'cli/main.js')],
  bundle: true,
  write: false,
  outfile: join(outdir, 'svc.cjs'),
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // `bin/svc.js` runs the bundle as a CommonJS module (exports, require, module, __filename,
  // __dirname); package-root.ts finds the package from import.meta.url.
  define: { 'import.meta.url': '__svcImportMetaUrl' },
  banner: { js: "var __svcImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const code = result.outputFiles[0].text;
const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'svc.cjs'), `// svc-bundle ${hash}\n${code}`);
