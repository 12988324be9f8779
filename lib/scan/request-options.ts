/**
 * R-REQOPTS: the second argument (`{ signal, timeout, headers, maxRetries }`) is kept as it is. Two
 * of the SDK's request options are not options of the call but replace what it sends: `body` (the
 * SDK's post spreads the options over `{ body }`) and `path`. Kept on a migrated call, a Chat body
 * went to /responses, or a Responses body to /chat/completions (probe of request options,
 * 2026-12-05, run against a capturing fetch). Options whose type may hold either are reported.
 */
import { ts, propertyNameText, shortText, unwrap } from './ast.js';
import { isErrorType } from './types.js';

/** Request options that take over the request itself. */
const OVERRIDING_OPTIONS = ['body', 'path'];

/**
 * What makes the options a call passes unsafe to keep, or undefined. An object literal is read
 * key by key; any other value by its type, which must list its keys: the scan declares the SDK's
 * own types bare (lib/project/sdk-shims.ts), so a `RequestOptions` parameter shows none.
 */
export function overridingRequestOptions(checker: ts.TypeChecker, options: ts.Expression): string | undefined {
  const value = unwrap(options);
  if (ts.isObjectLiteralExpression(value)) {
    for (const p of value.properties) {
      if (ts.isSpreadAssignment(p)) {
        const inner = overridingRequestOptions(checker, p.expression);
        if (inner) return inner;
        continue;
      }
      const key = p.name && propertyNameText(p.name);
      if (key === undefined) return `a computed key in request options ${shortText(options, 40)} (it may be body or path)`;
      if (OVERRIDING_OPTIONS.includes(key)) return overriding(key, options);
    }
    return undefined;
  }
  const type = checker.getNonNullableType(checker.getTypeAtLocation(options));
  const parts = type.isUnion() ? type.types : [type];
  if (parts.some((t) => t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || isErrorType(t) || !t.getProperties().length)) {
    return `request options ${shortText(options, 40)}, which may set body or path (their keys are not in view)`;
  }
  const key = OVERRIDING_OPTIONS.find((k) => parts.some((t) => t.getProperty(k)));
  return key ? overriding(key, options) : undefined;
}

function overriding(key: string, options: ts.Expression): string {
  return `request option ${key} in ${shortText(options, 40)} (it replaces the ${key === 'body' ? 'body' : 'endpoint'} the rewrite sends)`;
}
