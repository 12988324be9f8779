/**
 * Text patches over the original source. Transforms find nodes in the jscodeshift (Babel) AST and
 * express every change as a patch at node offsets, so untouched code keeps its exact bytes:
 * recast's reprinting re-indented whole objects as soon as a property was added or removed.
 */

export interface Patch {
  start: number;
  end: number;
  text: string;
  /** Insertion order, to keep inserts at the same offset stable. */
  seq: number;
}

export class PatchConflict extends Error {}

/** Sorts closing inserts before plain ones at the same offset (SourceEditor.insertClosing). */
const CLOSING = 1e9;

export class SourceEditor {
  private readonly patches: Patch[] = [];
  private seq = 0;
  /** The file's line ending, for the lines this editor adds. */
  readonly eol: string;

  constructor(readonly text: string) {
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
  }

  replace(start: number, end: number, text: string): void {
    if (start > end || start < 0 || end > this.text.length) throw new PatchConflict(`bad range ${start}-${end}`);
    if (this.text.slice(start, end) === text) return;
    // an edit inside text another edit deletes is moot (e.g. a `name` on a hoisted system message)
    if (this.patches.some((p) => p.text === '' && p.start <= start && end <= p.end && p.start < start && end < p.end)) return;
    for (const p of this.patches) {
      const overlaps = start < p.end && p.start < end;
      const insertInside = (start === end && p.start < start && start < p.end) || (p.start === p.end && start < p.start && p.start < end);
      const sameRange = p.start === start && p.end === end && start !== end;
      if (sameRange && p.text === text) return; // the same edit asked twice (a unit of sites)
      if (overlaps || insertInside || sameRange) {
        throw new PatchConflict(`overlapping edits at ${start}-${end} and ${p.start}-${p.end}`);
      }
    }
    this.patches.push({ start, end, text, seq: this.seq++ });
  }

  /** An edit given as its range and text. */
  replaceRange(edit: { start: number; end: number; text: string }): void {
    this.replace(edit.start, edit.end, edit.text);
  }

  insert(at: number, text: string): void {
    this.replace(at, at, text);
  }

  /**
   * An insert that closes what ends at `at` (the `)` of a call written around a value): it goes
   * before every plain insert at that offset, whenever those were asked for (`, store: false`
   * after the value stays after the call).
   */
  insertClosing(at: number, text: string): void {
    const before = this.patches.length;
    this.replace(at, at, text);
    if (this.patches.length > before) this.patches[this.patches.length - 1]!.seq -= CLOSING;
  }

  remove(start: number, end: number): void {
    this.replace(start, end, '');
  }

  get changed(): boolean {
    return this.patches.length > 0;
  }

  /** Is any patch touching this range already? */
  touches(start: number, end: number): boolean {
    return this.patches.some((p) => start < p.end && p.start < end);
  }

  apply(): string {
    const sorted = [...this.patches].sort((a, b) => a.start - b.start || a.end - b.end || a.seq - b.seq);
    let out = '';
    let at = 0;
    for (const p of sorted) {
      out += this.text.slice(at, p.start) + p.text;
      at = p.end;
    }
    return out + this.text.slice(at);
  }

  // ---- layout helpers over list-like syntax (object properties, array elements) ------------

  lineStart(offset: number): number {
    const i = this.text.lastIndexOf('\n', offset - 1);
    return i + 1;
  }

  lineEnd(offset: number): number {
    const i = this.text.indexOf('\n', offset);
    return i === -1 ? this.text.length : i;
  }

  /** Whitespace before `offset` on its line, when the line holds nothing else before it. */
  indentAt(offset: number): string | undefined {
    const start = this.lineStart(offset);
    const before = this.text.slice(start, offset);
    return /^[ \t]*$/.test(before) ? before : undefined;
  }

  /** The end of `from`'s line when the rest of it is only a line or block comment, else undefined. */
  commentedLineEnd(from: number): number | undefined {
    let end = this.lineEnd(from);
    if (this.text[end - 1] === '\r') end--;
    return end > from && /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)$/.test(this.text.slice(from, end)) ? end : undefined;
  }

  /** The offset just after the comma that follows `end` (skipping blanks and comments), if any. */
  commaAfter(end: number): number | undefined {
    let i = this.skipTrivia(end);
    return this.text[i] === ',' ? i + 1 : undefined;
  }

  skipTrivia(from: number): number {
    let i = from;
    for (;;) {
      while (i < this.text.length && /\s/.test(this.text[i])) i++;
      if (this.text.startsWith('//', i)) {
        i = this.lineEnd(i);
        continue;
      }
      if (this.text.startsWith('/*', i)) {
        const close = this.text.indexOf('*/', i + 2);
        i = close === -1 ? this.text.length : close + 2;
        continue;
      }
      return i;
    }
  }

  /** Remove item `index` of a list, with its comma, and its whole line when it sits alone on one. */
  removeItem(items: readonly { start: number; end: number }[], index: number): void {
    this.removeItems(items, [index]);
  }

  /**
   * Remove several items of one list at once. Neighbouring items are removed as one run, so two
   * removals never fight over the comma between them.
   */
  removeItems(items: readonly { start: number; end: number }[], indices: readonly number[]): void {
    const sorted = [...new Set(indices)].sort((a, b) => a - b);
    const runs: [number, number][] = [];
    for (const i of sorted) {
      const last = runs[runs.length - 1];
      if (last && last[1] === i - 1) last[1] = i;
      else runs.push([i, i]);
    }
    for (const [i, j] of runs) this.removeRun(items, i, j);
  }

  private removeRun(items: readonly { start: number; end: number }[], i: number, j: number): void {
    const first = items[i];
    const last = items[j];
    const next = items[j + 1];
    const comma = this.commaAfter(last.end);
    const ownLines = this.indentAt(first.start) !== undefined;
    if (!next && comma === undefined) {
      if (i > 0) {
        // the run ends the list without a trailing comma: take the comma before it
        const prevComma = this.commaAfter(items[i - 1].end)!;
        this.remove(prevComma - 1, last.end);
        return;
      }
      // every item goes
      if (ownLines) this.remove(this.lineStart(first.start), Math.min(this.lineEnd(last.end) + 1, this.text.length));
      else this.remove(first.start, last.end);
      return;
    }
    const afterRun = comma ?? last.end;
    const rest = this.text.slice(afterRun, this.lineEnd(afterRun));
    if (ownLines && /^\s*$/.test(rest) && (!next || next.start > this.lineEnd(afterRun))) {
      this.remove(this.lineStart(first.start), Math.min(this.lineEnd(afterRun) + 1, this.text.length));
      return;
    }
    let end = afterRun;
    while (end < this.text.length && (this.text[end] === ' ' || this.text[end] === '\t')) end++;
    this.remove(first.start, next ? Math.min(end, next.start) : end);
  }

  /**
   * Insert `codes` (one item or several) as new list items before item `index` (or at the end when index = length),
   * in the layout the list already has (one per line, or inline). `open` is the offset just after
   * the opening bracket, used for empty lists.
   */
  insertItem(items: readonly { start: number; end: number }[], index: number, codes: string | readonly string[], open: number): void {
    const list = typeof codes === 'string' ? [codes] : codes;
    if (list.length === 0) return;
    if (items.length === 0) {
      this.insert(open, ` ${list.join(', ')} `);
      return;
    }
    const ref = items[Math.min(index, items.length - 1)];
    const indent = this.indentAt(ref.start);
    const multiline = indent !== undefined;
    // several items go in as one insert: two inserts at the same place would each add a comma
    // after the last item (`'auto',, // comment`, corpus: AI_course_res)
    const code = list.join(multiline ? `,${this.eol}${indent}` : ', ');
    if (index < items.length) {
      this.insert(ref.start, multiline ? `${code},${this.eol}${indent}` : `${code}, `);
      return;
    }
    const last = items[items.length - 1];
    const comma = this.commaAfter(last.end);
    if (multiline) {
      // after a trailing comment on the last item's line, which stays with that item (G-TRIVIA)
      const at = this.commentedLineEnd(comma ?? last.end);
      if (comma !== undefined) this.insert(at ?? comma, `${this.eol}${indent}${code},`);
      else if (at === undefined) this.insert(last.end, `,${this.eol}${indent}${code}`);
      else {
        this.insert(last.end, ',');
        this.insert(at, `${this.eol}${indent}${code}`);
      }
      return;
    }
    if (comma !== undefined) this.insert(comma, ` ${code},`);
    else this.insert(last.end, `, ${code}`);
  }
}
