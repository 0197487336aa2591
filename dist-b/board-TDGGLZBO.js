import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  registerBoard,
  toBoardLines
} from "./chunk-265OEWKX.js";
import "./chunk-B5DKL4LX.js";
import "./chunk-6RIWMO4X.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-V4RWK56N.js";
export {
  registerBoard,
  toBoardLines
};
