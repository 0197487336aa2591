import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  toRoot
} from "./chunk-TAXNM3NS.js";

// dist/cli/context.js
var storeModule;
async function loadStore() {
  storeModule ??= await import("./store-UQCQIVKN.js");
}
function createContext(io) {
  const root = toRoot(io.env.SVC_HOME);
  let store;
  return {
    io,
    root,
    store: () => {
      if (!storeModule)
        throw new Error("svc: the store module was not loaded (call loadStore first)");
      return store ??= storeModule.createStore({ root });
    },
    print: (text) => io.stdout(`${text}
`),
    json: (value) => io.stdout(`${JSON.stringify(value, null, 2)}
`),
    exitCode: 0
  };
}

export {
  loadStore,
  createContext
};
