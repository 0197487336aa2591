import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readPackageVersion
} from "./chunk-CNII3WO7.js";

// dist/cli/version.js
function readVersion() {
  return readPackageVersion();
}

export {
  readVersion
};
