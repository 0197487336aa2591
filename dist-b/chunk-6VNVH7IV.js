import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/engine/file-cache.js
import { statSync } from "node:fs";
function createFileCache(file, load) {
  let stamp;
  let value;
  return {
    get() {
      const st = statSync(file, { throwIfNoEntry: false });
      const next = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "none";
      if (value && next === stamp)
        return value;
      stamp = next;
      const previous = value;
      value = (previous ?? Promise.resolve(void 0)).then(load, () => load(void 0));
      return value;
    }
  };
}

export {
  createFileCache
};
