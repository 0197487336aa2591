import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/core/compare.js
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

export {
  compareText
};
