export {
  type Table1Event,
  type Table1EventOptions,
  type Table1Row,
  type Table1Solution,
  type Table1Usage,
  table1Event,
  table1Row,
} from "./table1.js";
