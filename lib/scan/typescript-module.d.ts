// The compiler file of ts-morph's core package (lib/scan/typescript.cts): the same compiler as
// ts-morph's `ts` export, with its types.
declare module '@ts-morph/common/dist/typescript.js' {
  import { ts } from 'ts-morph';
  export = ts;
}
