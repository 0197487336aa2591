import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/core/limit.js
async function forEachLimit(items, limit, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length)
      await fn(items[next++]);
  });
  await Promise.all(workers);
}

export {
  forEachLimit
};
