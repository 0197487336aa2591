import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ERROR_STATUS,
  SvcError,
  isSvcError,
  toSvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";
export {
  ERROR_STATUS,
  SvcError,
  isSvcError,
  toSvcError
};
