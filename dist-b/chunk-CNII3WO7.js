import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/core/package-root.js
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
var cached;
function findPackageRoot() {
  if (cached)
    return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "templates"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("svc: cannot find the package root (package.json beside templates/)");
    dir = parent;
  }
  cached = dir;
  return dir;
}
function templatePath(...parts) {
  return join(findPackageRoot(), "templates", ...parts);
}
function readPackageVersion() {
  const pkg = JSON.parse(readFileSync(join(findPackageRoot(), "package.json"), "utf8"));
  return pkg.version ?? "0.0.0";
}

export {
  findPackageRoot,
  templatePath,
  readPackageVersion
};
