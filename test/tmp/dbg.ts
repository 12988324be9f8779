import { run } from '/work/main/lib/run.js';
import { defaultOptions } from '/work/main/lib/options.js';
const dir = process.argv[2];
const files = process.argv.slice(3);
const r = await run(defaultOptions({ paths: files, cwd: dir, dryRun: true, tsconfig: process.env.TSC ? 'tsconfig.json' : undefined }));
for (const s of r.report.sites) console.log(`${s.file}:${s.line}:${s.column} ${s.status} ${s.client.provider} [${s.kinds}] ${s.reasons.map(x => x.code + (x.detail ? ':' + x.detail : '')).join(', ')} | ${s.notes.map(n=>n.rule).join(',')}`);
for (const e of r.report.errors) console.log('ERR', e.file, e.message);
if (!process.env.QUIET) for (const c of r.changes) console.log('=====', c.rel, '\n' + c.after);
