/**
 * Site identity (lib/scan/site-id.ts): what an id is made of, what changes it and what does not.
 * The end-to-end side (ids in the report, SARIF fingerprints, the baseline) is in test/ci.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ts } from '../lib/scan/ast.js';
import { calleeText, declarationPath, siteId } from '../lib/scan/site-id.js';

function calls(text: string, file = 'a.ts'): ts.CallExpression[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ts.CallExpression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && /completions/.test(n.expression.getText())) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const ids = (text: string, file = 'src/a.ts') => calls(text).map((c) => siteId(file, 'chat.completions.create', c));

const SERVICE = `import OpenAI from 'openai';
export class ChatService {
  private client = new OpenAI();
  async ask(q: string) {
    const r = await this.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: q }] });
    const again = await this.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: q }] });
    return [r, again];
  }
  summarise = async (t: string) => this.client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: t }] });
}
export const helpers = { title: (t: string) => new OpenAI().chat.completions.create({ model: 'm', messages: [] }) };
`;

describe('site ids', () => {
  it('name the enclosing declarations and the callee without trivia', () => {
    const [first, , field, prop] = calls(SERVICE);
    assert.deepEqual(declarationPath(first), ['class:ChatService', 'method:ask']); // a result variable is no declaration of code
    assert.deepEqual(declarationPath(field), ['class:ChatService', 'field:summarise']);
    assert.deepEqual(declarationPath(prop), ['variable:helpers', 'property:title']);
    const [split] = calls('client\n  .chat /* the chat resource */\n  .completions // GA\n  .create({});');
    assert.equal(calleeText(split), 'client.chat.completions.create');
  });

  it('are 16 hex digits, distinct within a file (ordinal among identical calls), and depend on file and api', () => {
    const all = ids(SERVICE);
    assert.equal(all.length, 4);
    assert.ok(all.every((id) => /^[0-9a-f]{16}$/.test(id)));
    assert.equal(new Set(all).size, 4); // the two identical calls in ask() differ by their ordinal
    assert.notDeepEqual(ids(SERVICE, 'src/b.ts'), all);
    const c = calls(SERVICE)[0];
    assert.notEqual(siteId('src/a.ts', 'chat.completions.parse', c), siteId('src/a.ts', 'chat.completions.create', c));
  });

  it('survive moved lines, edits elsewhere and reformatting of the call', () => {
    const before = ids(SERVICE);
    const moved = `// a licence header\n\nimport { z } from 'zod';\n${SERVICE.replace('async ask(q: string) {', 'async ask(q: string) {\n    console.log(q);\n    if (!q) return [];')}\nexport function unrelated() { return 1; }\n`;
    assert.deepEqual(ids(moved), before);
    const reformatted = SERVICE.replace('await this.client.chat.completions.create({ model', 'await this.client.chat\n      .completions.create({\n      model');
    assert.deepEqual(ids(reformatted), before);
    // a new method before ask() changes nothing either: ordinals count within one declaration
    const added = SERVICE.replace('  async ask(', "  async other() { return this.client.chat.completions.create({ model: 'm', messages: [] }); }\n  async ask(");
    assert.deepEqual(ids(added).filter((id) => before.includes(id)), before);
  });

  it('change when the site itself changes: its function renamed, its callee, or an identical call added before it', () => {
    const before = ids(SERVICE);
    assert.notEqual(ids(SERVICE.replace('async ask(', 'async question('))[0], before[0]);
    assert.notEqual(ids(SERVICE.replace('const r = await this.client.chat', 'const r = await this.openai.chat'))[0], before[0]);
    const doubled = SERVICE.replace('    const r = await', "    await this.client.chat.completions.create({ model: 'm', messages: [] });\n    const r = await");
    assert.equal(ids(doubled)[1], before[1]); // the call of `r` is now the second identical call in ask()
    assert.notEqual(ids(doubled)[1], before[0]);
    assert.deepEqual(ids(SERVICE.replace('const r = await', 'const response = await')), before); // a result variable renamed
  });
});
