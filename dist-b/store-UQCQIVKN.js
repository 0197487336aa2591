import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createStore,
  initTree,
  listNames,
  listTasks
} from "./chunk-BHFKD6MH.js";
import "./chunk-FWKO7PZW.js";
import "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";
export {
  createStore,
  initTree,
  listNames,
  listTasks
};
