/**
 * The TypeScript compiler ts-morph bundles, loaded with require(): importing it as an ES module
 * would make Node lex its 9 MB source for export names first, and importing ts-morph's core
 * package would also compile its 3 MB of lib files. Together that is 0.1 s of every run.
 */
import ts = require('@ts-morph/common/dist/typescript.js');

export = ts;
