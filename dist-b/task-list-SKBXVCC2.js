import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  registerTaskList
} from "./chunk-6VAOZMD7.js";
import "./chunk-B5DKL4LX.js";
import "./chunk-SKFLEAYI.js";
import "./chunk-SBT3SZU2.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";
export {
  registerTaskList
};
