// Build step (`node scripts/bundle-cli.mjs <build folder>`, run by scripts/build.mjs): bundles the
// command line (<build folder>/cli/main.js and everything it imports, packages included) into
// <build folder>/bin/: one small entry and chunks that load only when a command needs them, so a
// command pays for its own code alone and no module resolution (docs/architecture.md, "Command
// line"). bin/meta.json records which sources each chunk holds.
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const repo = new URL('..', import.meta.url).pathname;
const folder = resolve(repo, process.argv[2] ?? 'dist');
const outdir = join(folder, 'bin/');
rmSync(outdir, { recursive: true, force: true }); // chunk names change with their content
const result = await build({
  absWorkingDir: repo, // the metafile's paths are relative to the package root
  entryPoints: { main: join(folder, 'cli/main.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle still call require() for node's builtins, and
  // write-file-atomic reads __filename.
  banner: { js: [
    "import { createRequire as __svcRequire } from 'node:module';",
    "import { fileURLToPath as __svcPath } from 'node:url';",
    'const require = __svcRequire(import.meta.url);',
    'const __filename = __svcPath(import.meta.url);',
    "const __dirname = __svcPath(new URL('.', import.meta.url));",
  ].join(' ') },
});
// paths as they are once the build is swapped into dist/
const built = `"${relative(repo, folder)}/`;
writeFileSync(`${outdir}meta.json`, JSON.stringify(result.metafile).replaceAll(built, '"dist/'));
