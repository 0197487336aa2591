// Build step (`node scripts/bundle-web.mjs <build folder>`, run by scripts/build.mjs): bundles the web
// board's page (web/app.js with preact, htm and markdown-it, and web/app.css) into <build folder>/web/page/,
// which the daemon serves from dist/web/page/ (docs/web-board.md): no CDN, the page works offline.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const repo = new URL('..', import.meta.url).pathname;
const folder = resolve(repo, process.argv[2] ?? 'dist');
const outdir = join(folder, 'web', 'page'); // beside tsc's output of lib/web/
mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: repo,
  entryPoints: { app: join(repo, 'web/app.js') },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(repo, 'web/app.css'), join(outdir, 'app.css'));
