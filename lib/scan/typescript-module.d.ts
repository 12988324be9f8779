// The compiler file of ts-morph's core package has its types in lib/typescript.d.ts.
declare module '@ts-morph/common/dist/typescript.js' {
  import { ts } from '@ts-morph/common';
  export = ts;
}
