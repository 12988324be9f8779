/**
 * transforms/editor.ts: the text edits every transform goes through. A call written around a value
 * (M-CONTENT-UNTYPED's converter) and the value's own rewrites must compose, not conflict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchConflict, SourceEditor } from '../transforms/editor.js';

describe('SourceEditor', () => {
  it('writes a call around a value whose inside is rewritten too', () => {
    const text = 'push({ role: m.role })';
    const editor = new SourceEditor(text);
    const value = { start: 5, end: 21 };
    editor.insert(value.start, 'wrap([');
    editor.insertClosing(value.end, '])');
    editor.replace(13, 19, "'assistant'");
    assert.equal(editor.apply(), "push(wrap([{ role: 'assistant' }]))");
  });

  it('puts a closing insert before a plain insert at the same offset, whichever came first', () => {
    const editor = new SourceEditor('f(x)');
    editor.insert(3, ', y');
    editor.insert(2, 'g(');
    editor.insertClosing(3, ')');
    assert.equal(editor.apply(), 'f(g(x), y)');
  });

  it('still refuses two edits of overlapping ranges', () => {
    const editor = new SourceEditor('abcdef');
    editor.replace(1, 4, 'X');
    assert.throws(() => editor.replace(2, 5, 'Y'), PatchConflict);
  });
});
