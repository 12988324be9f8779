/**
 * Where a run-time conversion goes in a request (M-CONTENT-UNTYPED, R-TOOLS-UNTYPED). The
 * converters throw where the request's arguments are evaluated, where Chat's HTTP 400 for the same
 * values came through the request's promise (throw-path.ts): a conversion goes where its throw
 * meets the handler that received that rejection, or the request is wrapped so that the throw
 * rejects its promise, or the site is reported with why. One placer per request, shared by its
 * messages and its tools, so the request is wrapped once.
 */
import { isInside, ts } from './ast.js';
import type { ScanContext } from './context.js';
import type { SiteAnalysis } from './site.js';
import {
  awaitedLater, beforeRejection, enclosingTry, helperStreamThrowPath, isHelperStreamCall, otherThrows, outsideTry,
  rejectionPath, sdkPromiseMethodDownstream, startsStatementAfterUnterminated, type Converted,
} from './throw-path.js';

export class ConversionPlacer {
  /** The request is wrapped so that the converter's throw rejects its promise. */
  private wrapped = false;

  constructor(private readonly ctx: ScanContext, private readonly site: SiteAnalysis, private readonly call?: ts.CallExpression) {}

  /**
   * Where the run-time conversion of `value` goes so that the converter's throw meets the handler
   * that received the API's rejection of the same values: `here`; `request`, when `atRequest`
   * agrees to convert the whole history in the request's arguments instead; or why it cannot go
   * anywhere. A request whose rejection went elsewhere than a throw where it is made (a `.catch` on
   * its promise, a promise returned or stored: rejectionPath) is wrapped.
   */
  place(value: ts.Expression, what: Converted, atRequest: () => boolean): 'here' | 'request' | string {
    const call = this.call;
    if (!call || !this.ctx.runtimeConversion) return 'here';
    if (isHelperStreamCall(call)) {
      const why = helperStreamThrowPath(this.ctx.checker, call, what);
      if (why) return why;
      if (enclosingTry(value) === enclosingTry(call)) return 'here';
      return atRequest() ? 'request' : outsideTry(what);
    }
    const path = rejectionPath(call);
    if (path) {
      const inArguments = call.arguments.some((a) => isInside(value, a));
      const sdkMethod = sdkPromiseMethodDownstream(this.ctx, call);
      const other = sdkMethod ? `its ${sdkMethod} is the SDK's, which the wrapper's promise lacks` : otherThrows(this.ctx, call);
      if (other) return `${beforeRejection(path, what)}, and the request cannot be wrapped to reject instead: ${other}`;
      const paused = awaitedLater(call, this.ctx.checker);
      if (paused) return `${beforeRejection(path, what)}, and wrapped, its promise would reject with no handler yet while ${paused} is awaited (Node ends the process on that)`;
      if (!inArguments && !atRequest()) return beforeRejection(path, what);
      this.wrapRequest(call, what);
      return inArguments ? 'here' : 'request';
    }
    if (enclosingTry(value) === enclosingTry(call)) return 'here';
    return atRequest() ? 'request' : outsideTry(what);
  }

  private wrapRequest(call: ts.CallExpression, what: Converted): void {
    if (this.wrapped) return;
    this.wrapped = true;
    const rule = what === 'tools' ? 'R-TOOLS-UNTYPED' : 'M-CONTENT-UNTYPED';
    this.site.edit({ op: 'wrap-request', rule, ...this.site.range(call), leadingSemicolon: startsStatementAfterUnterminated(call) });
    this.site.note(rule, 'info', `The request is called inside (async () => …)() so that ${what === 'tools' ? 'a tool definition' : 'a message'} the converter rejects rejects the request's promise, as the API's HTTP 400 did.`);
  }
}
