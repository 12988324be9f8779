/**
 * Stream consumers (MIGRATION-SPEC §5, S- rules). This version recognises the hand-offs the spec
 * reports (S-HANDOFF) and reports every other consumer as not supported yet.
 */
import { ts, climbWrappers, unwrap } from './ast.js';
import type { ScanContext } from './context.js';
import { referencesOf } from './references.js';
import { useOf } from './results.js';
import type { SiteAnalysis } from './site.js';

export class StreamAnalyzer {
  constructor(private readonly ctx: ScanContext, private readonly site: SiteAnalysis) {}

  analyze(call: ts.CallExpression): void {
    const handoffs = new Set<string>();
    const visit = (node: ts.Node) => {
      const outer = climbWrappers(node);
      const parent = outer.parent;
      if (ts.isAwaitExpression(parent)) return visit(parent);
      if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
        for (const ref of referencesOf(this.ctx.checker, parent.name)) visit(ref);
        return;
      }
      if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
        const name = parent.name.text;
        if (name === 'toReadableStream' || name === 'tee') handoffs.add(name);
        return;
      }
      if (ts.isForOfStatement(parent)) return;
      const use = useOf(outer);
      if (use === 'return' || use === 'argument' || use === 'store' || use === 'export' || use === 'spread') handoffs.add(use);
    };
    visit(unwrap(call));
    for (const how of handoffs) this.site.reason('stream-handoff', how);
    if (!handoffs.size) this.site.reason('not-supported-yet', 'stream consumers (S- rules)');
  }
}
