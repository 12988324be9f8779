/**
 * Notes a migrated site carries (the fixtures' expected.json lists statuses and reasons, not
 * notes): the ones a reviewer acts on must appear where they apply and nowhere else.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseAllowList } from '../lib/allow.js';
import { scan } from '../lib/scan/index.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The notes (rule: message) of the one site of a TypeScript module. */
function notesOf(body: string): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-notes-'));
  dirs.push(dir);
  const file = path.join(dir, 'input.ts');
  const text = `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function f(q: string) {\n${body}\n}\n`;
  writeFileSync(file, text);
  const result = scan({ candidates: [{ path: file, text }], files: [file], roots: [dir], cwd: dir, allow: parseAllowList([]), only: [], skip: [], runtimeConversion: true });
  const sites = result.plans.flatMap((p) => p.sites);
  assert.equal(sites.length, 1);
  assert.equal(sites[0].record.status, 'migrated');
  return sites[0].record.notes.map((n) => `${n.rule}: ${n.message}`);
}

const JSON_MODE = "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: { type: 'json_object' } });";

describe('notes', () => {
  it("O-CONTENT-NULL on JSON.parse of a content that may be null: JSON.parse(null) gave null, so it reads output_text || 'null' (JSON.parse('') throws)", () => {
    const notes = notesOf(`  ${JSON_MODE}\n  return JSON.parse(r.choices[0].message.content as string);`);
    assert.ok(notes.some((n) => n.startsWith("O-CONTENT-NULL: JSON.parse reads output_text || 'null'")), notes.join('\n'));
  });

  it('no O-CONTENT-NULL note on JSON.parse of a content the program narrowed to a string (if (!content) return …)', () => {
    const notes = notesOf(`  ${JSON_MODE}\n  const content = r.choices[0].message.content;\n  if (!content) return null;\n  return JSON.parse(content);`);
    assert.ok(!notes.some((n) => n.startsWith('O-CONTENT-NULL')), notes.join('\n'));
  });

  it('no O-CONTENT-NULL note on JSON.parse where the request always gets a string back (no tools, no structured output)', () => {
    const notes = notesOf("  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\n  return JSON.parse(r.choices[0].message.content as string);");
    assert.ok(!notes.some((n) => n.startsWith('O-CONTENT-NULL')), notes.join('\n'));
  });

  it('O-USAGE only where a renamed usage field is read: total_tokens keeps its name', () => {
    const call = "  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });";
    assert.ok(!notesOf(`${call}\n  return r.usage?.total_tokens;`).some((n) => n.startsWith('O-USAGE')));
    assert.ok(notesOf(`${call}\n  return r.usage?.prompt_tokens;`).some((n) => n.startsWith('O-USAGE')));
  });

  it('O-TOOLCALLS where tool_calls![0] is held: Chat threw on a text answer, the filter gives undefined; not after ?.[0]', () => {
    const call = "  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], tools: [{ type: 'function', function: { name: 'now' } }] });";
    const threw = (n: string) => n.startsWith('O-TOOLCALLS: tool_calls[0] threw a TypeError');
    assert.ok(notesOf(`${call}\n  const first = r.choices[0].message.tool_calls![0];\n  return first.id;`).some(threw));
    assert.ok(!notesOf(`${call}\n  const first = r.choices[0].message.tool_calls?.[0];\n  return first?.id;`).some(threw));
  });
});
