import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createContext,
  loadStore
} from "./chunk-SKFLEAYI.js";
import "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";
export {
  createContext,
  loadStore
};
