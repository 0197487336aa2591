import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  registerDaemon,
  startDaemonProcess,
  stopDaemonProcess
} from "./chunk-5ZO2XJSR.js";
import "./chunk-PM6OXDIW.js";
import "./chunk-577AH7VX.js";
import "./chunk-6VNVH7IV.js";
import "./chunk-V67X4HHO.js";
import "./chunk-Q6YWZLEM.js";
import "./chunk-CNII3WO7.js";
import "./chunk-BHFKD6MH.js";
import "./chunk-FWKO7PZW.js";
import "./chunk-65H2CJZB.js";
import "./chunk-EUW644CT.js";
import "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import "./chunk-SBT3SZU2.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";
export {
  registerDaemon,
  startDaemonProcess,
  stopDaemonProcess
};
