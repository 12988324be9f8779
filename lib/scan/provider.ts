/**
 * Proves which client a call goes through (docs/migration-spec.md §7, P- rules): follows the receiver to
 * its construction across variables, imports, class fields, factories and unions, then reads the
 * client options to decide the provider.
 */
import path from 'node:path';
import type { Note, Provider } from '../report/model.js';
import type { ReasonRef } from '../rules/reasons.js';
import {
  AZURE_DEPLOYMENTS, AZURE_HOST, AZURE_V1_SUFFIX, FOREIGN_HEADER_HINT, FOREIGN_KEY_HINT, SDK_BASE_URL_ENV, SDK_DEFAULT_BASE_URL, isOpenAIHost,
} from '../rules/providers.js';
import {
  ts, unwrap, stringValue, propertyNameText, propertyValue, isFunctionLike, walk, shortText, returnExpressions, isGlobal, thisClass, climbWrappers, isWriteReference, isPlainWriteTarget, isAccess, accessName } from './ast.js';
import { referencesOf, symbolOf } from './references.js';
import { chainOf } from './find-sites.js';
import { isMockPackage, isOtherSdk } from '../rules/other-sdks.js';
import { aliasTarget, bindingOfDeclaration, bindingOfExpression, declarationOf, moduleOfRequire, sdkClassOf, valuesAssignedTo } from './bindings.js';
import { type ScanContext, locationOf, resolveClass, isProjectFile, relativeFile } from './context.js';
import { holderOf, invocationsOf, type Invocation } from './injected.js';
import { importedModule, loadedSourceFiles } from './callers.js';
import { requiredExports } from './commonjs.js';
import { injectToken, tokenProviders } from './di-providers.js';
import { autoImportSources } from './auto-imports.js';
import { BASE_URL_ENV_WRITE, UNNAMED_ENV_WRITE, envFileBaseURL, namedEnvFileBaseURL, runsInOwnProcess, withoutComments } from './base-url-env.js';
import { WriteReader } from './write-reader.js';
import { BASE_URL_MEMBER_WRITE, CHAT_METHOD_WRITE, TEST_FILE, baseURLWriteTarget, chatMethodWriteTarget, literalOfThis, memberWritePattern, writeTarget } from './writes.js';
import { fetchHookEffect } from './fetch-hook.js';
import { factoryOf, prototypeLent, usesOtherThanExtends } from './mixins.js';
import { escapeRegExp, wordPattern } from '../regexp.js';

export type { ReasonRef };

/** One possible origin of a receiver. A union (P-UNION) has several. */
export type Origin =
  | {
    kind: 'sdk'; provider: Provider; evidence: string; reason?: ReasonRef; notes: Note[]; isDefault: boolean;
    /** The `new OpenAI(…)` that built the client, when it is in view (its later writes are read). */
    construction?: ts.NewExpression;
  }
  /**
   * Another library's client (N05): its calls are not sites. `double`: an object literal that
   * imitates the client (a test double, N04).
   */
  | { kind: 'foreign'; evidence: string; double?: boolean }
  /** A wrapper around an openai client that keeps the method shape (P-WRAPPER). */
  | { kind: 'wrapper'; evidence: string; provider: Provider };

export interface ClientResolution {
  /** Not a site at all (N05). */
  foreign: boolean;
  provider: Provider;
  evidence: string;
  reason?: ReasonRef;
  /** P-UNION: the other branches' failing reasons, each once (G-ATOMIC lists them all). */
  otherReasons?: ReasonRef[];
  notes: Note[];
  /** P-DEFAULT: a client built without any provider option (for P-MODEL-HINT). */
  isDefault: boolean;
  /** P-WRAPPER: the call goes through a wrapper, whose params and results are its own. */
  wrapper?: boolean;
}

const MAX_DEPTH = 24;

/** W-INJECTED: the clients the calls of a parameter's holder pass, or why they cannot all be seen. */
type Injected = { origins: Origin[] } | { why: string };



/** `provider-unknown` details that still describe a client the SDK constructs in view. */
const CONSTRUCTED_UNKNOWN: ReadonlySet<string> = new Set(['runtime-base-url', 'options-spread', 'subclass', 'model-hint', 'key-hint', 'replaced-method']);

/** P-KEY-HINT: a default client's key named for another vendor, or OpenRouter's attribution headers. */
function vendorHint(props: ReadonlyMap<string, ts.Expression>): string | undefined {
  const key = props.get('apiKey');
  const named = key && FOREIGN_KEY_HINT.exec(key.getText());
  if (named) return `its apiKey ${shortText(key!, 40)} names ${named[1]}`;
  const headers = props.get('defaultHeaders');
  const object = headers && unwrap(headers);
  const header = object && ts.isObjectLiteralExpression(object)
    ? object.properties.map((p) => (p.name ? propertyNameText(p.name) : undefined)).find((name) => name !== undefined && FOREIGN_HEADER_HINT.test(name))
    : undefined;
  return header ? `its defaultHeaders send ${header}, OpenRouter's attribution header` : undefined;
}

/** The constructions whose client gets a `baseURL` written or its Chat method replaced, or why they are not known yet. */
type ClientWrites = Map<ts.NewExpression, { where: string; what: 'baseURL' | 'method' }> | { pending: string };

export class ProviderResolver {
  private readonly cache = new Map<ts.Node, Origin[]>();
  private readonly active = new Set<ts.Node>();
  /** The modules Nuxt auto-imports, per directory of a file: the lookup reads the disk. */
  private readonly autoImports = new Map<string, string[]>();

  /**
   * `readsClientWrites`: whether the clients' own later writes (`client.baseURL = …`) are read. The
   * resolver that finds those writes' receivers does not read them (it would ask itself).
   */
  /** Where the clients, their holders and their options are written (lib/scan/write-reader.ts). */
  private readonly writes: WriteReader;

  constructor(private readonly ctx: ScanContext, private readonly readsClientWrites = true) {
    this.writes = new WriteReader(ctx);
  }

  /** Resolve the client expression of a call site and combine its origins. */
  resolve(receiver: ts.Expression): ClientResolution {
    const origins = this.origins(receiver, 0);
    return combine(origins, this.describe(receiver));
  }

  private describe(receiver: ts.Expression): string {
    return `${shortText(receiver, 40)} in ${locationOf(this.ctx, receiver)}`;
  }

  /** P-UNRESOLVED: a value from a module the tool cannot resolve or read is listed, never dropped. */
  private unresolved(module: string, evidence: string): Origin[] {
    // another vendor's SDK (or a mocking library) used without being installed or declared in view:
    // known by name, as openai is (a project does not call its own module `groq-sdk`)
    if (isOtherSdk(module)) return [{ kind: 'foreign', evidence: `${evidence} (from '${module}', another vendor's SDK, not installed in view)` }];
    if (isMockPackage(module)) return [{ kind: 'foreign', evidence, double: true }];
    return [{ kind: 'sdk', provider: 'unknown', evidence: `${evidence} (from '${module}', which could not be resolved)`, reason: { code: 'provider-unknown', detail: 'unresolved' }, notes: [], isDefault: false }];
  }

  private unknown(node: ts.Node, why: string, evidence: string): Origin[] {
    return [{ kind: 'sdk', provider: 'unknown', evidence, reason: { code: 'provider-unknown', detail: why }, notes: [], isDefault: false }];
  }

  /** All possible origins of a value expression. An empty list means "no contribution" (a cycle). */
  origins(expression: ts.Expression, depth: number): Origin[] {
    const expr = unwrap(expression);
    if (depth > MAX_DEPTH) return this.unknown(expr, 'injected', `${this.describe(expr)} (too deep to follow)`);
    const cached = this.cache.get(expr);
    if (cached) return cached;
    if (this.active.has(expr)) return [];
    this.active.add(expr);
    try {
      const result = this.computeOrigins(expr, depth + 1);
      this.cache.set(expr, result);
      return result;
    } finally {
      this.active.delete(expr);
    }
  }

  private computeOrigins(expr: ts.Expression, depth: number): Origin[] {
    // `null` / `undefined`: no client at all (a lazy field before its first use, a reset); a call
    // through it throws, so it adds nothing to what the call can go through
    if (isUndefinedLike(expr) || ts.isVoidExpression(expr)) return [];
    if (ts.isAwaitExpression(expr)) return this.origins(expr.expression, depth);
    const exported = this.commonJsExport(expr);
    if (exported) return exported.flatMap((e) => this.origins(e, depth));
    if (ts.isNewExpression(expr)) return this.fromConstruction(expr, depth);
    if (ts.isObjectLiteralExpression(expr)) return this.fromObjectLiteral(expr, depth);
    if (ts.isConditionalExpression(expr)) return [...this.origins(expr.whenTrue, depth), ...this.origins(expr.whenFalse, depth)];
    if (ts.isBinaryExpression(expr)) {
      const op = expr.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken ||
        op === ts.SyntaxKind.QuestionQuestionEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken) {
        return [...this.origins(expr.left, depth), ...this.origins(expr.right, depth)];
      }
      if (op === ts.SyntaxKind.EqualsToken) return this.origins(expr.right, depth);
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return this.origins(expr.right, depth);
      return this.unknown(expr, 'injected', this.describe(expr));
    }
    if (ts.isIdentifier(expr)) return this.fromIdentifier(expr, depth);
    if (expr.kind === ts.SyntaxKind.ThisKeyword) return this.unknown(expr, 'injected', this.describe(expr));
    if (ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr)) return this.fromMember(expr, depth);
    if (ts.isCallExpression(expr)) return this.fromCall(expr, depth);
    return this.byType(expr, 'injected', this.describe(expr));
  }

  // ---- constructions -------------------------------------------------------------------------

  private fromConstruction(expr: ts.NewExpression, depth: number): Origin[] {
    const where = locationOf(this.ctx, expr);
    const cls = sdkClassOf(bindingOfExpression(this.ctx, expr.expression));
    const text = `new ${shortText(expr.expression, 30)}()`;
    // a test file that mocks the openai module (`jest.mock('openai', …)`, hoisted above its imports):
    // every client it builds is the double (N04), not a site (probe of projects' own tests)
    const mocked = cls === 'openai' ? moduleMock(expr.getSourceFile()) : undefined;
    if (mocked) return [{ kind: 'foreign', evidence: `${text} in ${where}, a file that replaces the openai module (${mocked})`, double: true }];
    if (cls === 'openai') return [this.fromOptions(expr.arguments?.[0], `${text} in ${where}`, depth, expr)];
    if (cls === 'azure') {
      return [{ kind: 'sdk', provider: 'azure-legacy', evidence: `${text} in ${where}`, reason: { code: 'azure-legacy' }, notes: [], isDefault: false }];
    }
    if (cls === 'bedrock') {
      return [{ kind: 'sdk', provider: 'other', evidence: `${text} in ${where}`, reason: { code: 'provider-not-openai', detail: 'bedrock' }, notes: [], isDefault: false }];
    }
    if (cls === 'v3') return [{ kind: 'foreign', evidence: `${text} in ${where} (openai v3 class)` }];
    // `new Proxy(client, handler)`: whatever the target is, behind a handler that may change it (P-WRAPPER)
    if (isGlobal(this.ctx.checker, expr.expression, 'Proxy') && expr.arguments?.[0]) {
      return this.origins(expr.arguments[0], depth).map((o) => (o.kind === 'sdk' ? { kind: 'wrapper', provider: o.provider, evidence: `${text} around ${o.evidence}` } : o));
    }
    // A project class: a subclass of the SDK client (P-SUBCLASS), a wrapper that holds one and keeps
    // its shape (P-WRAPPER), or something else entirely (a test double, another SDK's wrapper).
    const projectClass = resolveClass(this.ctx.checker, expr.expression);
    if (projectClass) {
      if (this.extendsSdkClient(projectClass, 0)) return [this.fromSubclass(projectClass, expr, depth)];
      const wrapped = this.heldClient(projectClass, depth) ?? expr.arguments?.map((a) => this.wrappedClient(a, depth)).find((p) => p !== undefined);
      if (wrapped) return [{ kind: 'wrapper', provider: wrapped, evidence: `${text} in ${where} (a project class that holds an openai client)` }];
      return [{ kind: 'foreign', evidence: `${text} in ${where} (a project class that is not an openai client)` }];
    }
    const binding = bindingOfExpression(this.ctx, expr.expression);
    if (binding?.kind === 'unresolved') return this.unresolved(binding.module, `${text} in ${where}`);
    if (binding) return fromPackage(binding.module, `${text} from '${binding.module}' in ${where}`);
    return this.unknown(expr, 'injected', `${text} in ${where} (class not resolved)`);
  }

  /**
   * A client-shaped object literal: a test double (N04) when its `chat.completions` is built in
   * place, the client it borrows `chat` from (`{ chat: client.chat }`), or unknown.
   */
  private fromObjectLiteral(obj: ts.ObjectLiteralExpression, depth: number): Origin[] {
    const where = locationOf(this.ctx, obj);
    const chat = literalMember(obj, 'chat');
    if (chat === 'spread') return this.unknown(obj, 'injected', `an object literal with a spread in ${where}`);
    if (!chat) return [{ kind: 'foreign', evidence: `an object literal without \`chat\` in ${where}` }];
    const value = ts.isExpression(chat) ? unwrap(chat) : chat;
    if (ts.isObjectLiteralExpression(value)) {
      const completions = literalMember(value, 'completions');
      if (completions === 'spread') return this.unknown(obj, 'injected', `an object literal with a spread in ${where}`);
      if (!completions || (ts.isExpression(completions) && ts.isObjectLiteralExpression(unwrap(completions)))) {
        // a facade that passes its calls on to a Chat Completions client is production code, not a double
        const forwarded = completions && forwardingCall(unwrap(completions as ts.Expression) as ts.ObjectLiteralExpression);
        if (forwarded) {
          return [{
            kind: 'sdk', provider: 'unknown', notes: [], isDefault: false,
            evidence: `an object literal in ${where} that imitates the client and passes its calls to ${shortText(forwarded.expression, 40)}`,
            reason: { code: 'receiver-not-client', detail: `an object literal that imitates the client (${where}) has no responses resource` },
          }];
        }
        return [{ kind: 'foreign', evidence: `an object literal that imitates the client in ${where} (a test double)`, double: true }];
      }
      return this.unknown(obj, 'injected', `an object literal whose chat.completions comes from elsewhere in ${where}`);
    }
    // `{ chat: client.chat }`: the client the resource belongs to, but the literal has no `responses`
    if (ts.isPropertyAccessExpression(value) && value.name.text === 'chat') {
      return this.origins(value.expression, depth).map((o) => (o.kind === 'sdk' && !o.reason
        ? { ...o, reason: { code: 'receiver-not-client', detail: `an object literal in ${where} borrows only client.chat` } }
        : o));
    }
    return this.unknown(obj, 'injected', `an object literal whose chat comes from elsewhere in ${where}`);
  }

  /**
   * The provider of the openai client a project class builds or is handed (a constructor parameter
   * or field typed with the SDK class, or a client of the module whose chat it hands out), when it
   * builds or holds one.
   */
  private heldClient(cls: ts.ClassLikeDeclaration, depth: number): Provider | undefined {
    let found: Provider | undefined;
    walk(cls, (n) => {
      if (found) return;
      if (ts.isNewExpression(n)) {
        const sdk = sdkClassOf(bindingOfExpression(this.ctx, n.expression));
        if (sdk === 'openai' || sdk === 'azure') {
          const origin = this.fromConstruction(n, depth).find((o) => o.kind === 'sdk');
          found = origin?.kind === 'sdk' ? origin.provider : 'unknown';
        }
      } else if ((ts.isParameter(n) || ts.isPropertyDeclaration(n)) && n.type && this.classesOfTypeNode(n.type)?.some((c) => c !== 'foreign')) {
        found = 'unknown';
      } else if (isAccess(n) && accessName(n) === 'chat' && n.expression.kind !== ts.SyntaxKind.ThisKeyword) {
        // `get chat() { return openai.chat; }`, `static chat = openai.chat`: a client of the module
        // handed out through the class (probe of typed service layers: such calls were not listed)
        const origin = this.origins(n.expression, depth + 1).find((o) => o.kind === 'sdk' || o.kind === 'wrapper');
        if (origin) found = origin.provider;
      }
    });
    return found;
  }

  private extendsSdkClient(cls: ts.ClassLikeDeclaration, depth: number): boolean {
    if (depth > 8) return false;
    for (const clause of cls.heritageClauses ?? []) {
      if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
      for (const t of clause.types) {
        if (sdkClassOf(bindingOfExpression(this.ctx, t.expression))) return true;
        const base = resolveClass(this.ctx.checker, t.expression);
        if (base && this.extendsSdkClient(base, depth + 1)) return true;
      }
    }
    return false;
  }

  /**
   * A member of the subclass, or of a project class between it and the SDK's, that overrides a
   * method on the SDK client's request path (`buildURL` returning a gateway's URL; probe of
   * gateways), named with its class; undefined when none does.
   */
  private requestPathOverride(cls: ts.ClassLikeDeclaration, depth = 0): string | undefined {
    const member = cls.members.find((m) => m.name && REQUEST_PATH_MEMBERS.has(propertyNameText(m.name) ?? ''));
    if (member?.name) return `${cls.name?.text ?? 'the class'}.${propertyNameText(member.name)}`;
    if (depth > 8) return undefined;
    for (const clause of cls.heritageClauses ?? []) {
      if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
      for (const t of clause.types) {
        const base = resolveClass(this.ctx.checker, t.expression);
        const found = base && this.requestPathOverride(base, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** P-SUBCLASS: `class X extends OpenAI`; proven only when its super() call is. */
  private fromSubclass(cls: ts.ClassLikeDeclaration, construction: ts.NewExpression, depth: number): Origin {
    const evidence = `new ${cls.name?.text ?? 'class'}() (extends the SDK client) in ${locationOf(this.ctx, construction)}`;
    const override = this.requestPathOverride(cls);
    if (override) return subclassUnknown(`${evidence}; ${override} decides where requests go`);
    const ctor = cls.members.find(ts.isConstructorDeclaration);
    if (!ctor) {
      if (cls.getText().includes('baseURL')) return subclassUnknown(evidence);
      return this.fromOptions(construction.arguments?.[0], evidence, depth, construction);
    }
    let superArgs: ts.NodeArray<ts.Expression> | undefined;
    walk(ctor, (n) => {
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) superArgs = n.arguments;
    });
    if (!superArgs) return subclassUnknown(evidence);
    const options = superArgs[0];
    if (options && mentionsParameter(options, ctor)) return subclassUnknown(evidence);
    return this.fromOptions(options, evidence, depth, construction);
  }

  /**
   * Read the client options of a construction (of the SDK's class or a subclass); a default client
   * (P-DEFAULT) is not proven where the project sets OPENAI_BASE_URL itself (an env file beside the
   * package, or code that assigns it), nor any client whose baseURL is written after it is built.
   */
  private fromOptions(arg: ts.Expression | undefined, evidence: string, depth: number, construction: ts.NewExpression): Origin {
    const origin = this.readOptions(arg, evidence, depth);
    if (origin.kind !== 'sdk') return origin;
    // a fetch hook that reads the Chat request: the client reaches OpenAI, and its sites stay
    const hook = origin.reason ? undefined : fetchHookEffect(arg, this.ctx);
    if (hook?.kind === 'reads') return { ...origin, construction, reason: { code: 'not-supported-yet', detail: hook.detail } };
    if (hook?.kind === 'redirects') return runtimeBaseURL(`${evidence}, and ${hook.detail}`, construction);
    const set = origin.isDefault ? this.baseURLSetAt(construction) : undefined;
    if (set) return runtimeBaseURL(`${evidence}, and OPENAI_BASE_URL is set in ${set}`, construction);
    return this.afterConstruction(origin, construction);
  }

  /**
   * P-RUNTIME: the client's own `baseURL` written after it was built (`client.baseURL = …`, an
   * `Object.assign(client, { baseURL })`: RooCode's Qwen handler points its client at the host
   * its credentials name). The options said OpenAI; the write may say otherwise, so the client is
   * not proven. Writes are read in the files the scan loaded.
   */
  private afterConstruction(origin: Extract<Origin, { kind: 'sdk' }>, construction: ts.NewExpression): Origin {
    const written = this.readsClientWrites && origin.provider === 'openai' ? this.baseURLWrites(construction.getSourceFile().fileName) : undefined;
    if (written && 'pending' in written) return runtimeBaseURL(`${origin.evidence} (${written.pending})`, construction);
    const write = written?.get(construction);
    if (write?.what === 'method') {
      return runtimeBaseURL(`${origin.evidence}, and its chat.completions method is replaced in ${write.where}`, construction, 'replaced-method');
    }
    return write ? runtimeBaseURL(`${origin.evidence}, and its baseURL is written in ${write.where}`, construction) : { ...origin, construction };
  }

  /** baseURLWrites' answers, by the files outside the paths given that were read with the run's. */
  private readonly clientWrites = new Map<string, ClientWrites>();

  /**
   * The constructions whose client gets a `baseURL` written, with where (the first write), in the
   * files of the run that write one, and in those of `near`'s package outside the paths given
   * (read like the run's, never rewritten: `migrate-responses examples` on an SDK whose src/
   * writes the baseURL of clients of its own); those not in the program yet are asked for (the
   * scan runs again).
   */
  private baseURLWrites(near: string): ClientWrites {
    const outside = this.writes.filesWrittenOutside(near, (text) => BASE_URL_MEMBER_WRITE.test(text) || CHAT_METHOD_WRITE.test(text));
    if ('why' in outside) return { pending: outside.why };
    const key = outside.join('\0');
    const cached = this.clientWrites.get(key);
    if (cached) return cached;
    const writing = [...new Set([
      ...this.writes.filesOfRun('baseURL', (text) => BASE_URL_MEMBER_WRITE.test(text)),
      ...this.writes.filesOfRun('completions', (text) => CHAT_METHOD_WRITE.test(text)),
      ...outside,
    ])];
    const { files, missing } = loadedSourceFiles(this.ctx, writing);
    if (missing.length) {
      const pending = { pending: 'files that write a baseURL or replace a Chat method were not looked at yet' };
      this.clientWrites.set(key, pending);
      return pending;
    }
    const found = new Map<ts.NewExpression, { where: string; what: 'baseURL' | 'method' }>();
    this.clientWrites.set(key, found);
    const receivers = new ProviderResolver(this.ctx, false);
    for (const sf of files) {
      walk(sf, (n) => {
        const baseURL = baseURLWriteTarget(n);
        const target = baseURL ?? chatMethodWriteTarget(n);
        if (!target) return;
        for (const o of receivers.origins(target, 0)) {
          if (o.kind === 'sdk' && o.construction && !found.has(o.construction)) found.set(o.construction, { where: locationOf(this.ctx, n), what: baseURL ? 'baseURL' : 'method' });
        }
      });
    }
    return found;
  }

  private readonly envFiles = new Map<string, string | null>();
  private baseURLAssignment: string | null | undefined;

  private baseURLSetAt(construction: ts.Node): string | undefined {
    // a test or script runs in a process of its own (runsInOwnProcess): a write there sets nothing
    // for the application, in the paths given or outside them (openai-node's tests set it for a
    // local server; its examples never run them)
    const ownProcess = (file: string) => runsInOwnProcess(relativeFile(this.ctx.cwd, file));
    if (this.baseURLAssignment === undefined) {
      const named = this.writes.filesOfRun(SDK_BASE_URL_ENV, (text, file) => !ownProcess(file) && BASE_URL_ENV_WRITE.test(text));
      this.baseURLAssignment = named.length ? relativeFile(this.ctx.cwd, named[0]) : null;
    }
    if (this.baseURLAssignment) return this.baseURLAssignment;
    const unseen = this.writes.writtenOutside(construction.getSourceFile().fileName, (text, file) => !ownProcess(file) && BASE_URL_ENV_WRITE.test(text));
    if (unseen) return unseen;
    // what sets it without naming it counts in the client's own package only, in the application's process
    const root = this.packageRootOf(construction.getSourceFile().fileName);
    const indirect = this.indirectBaseURL().find((w) => w.root === root);
    if (indirect) return indirect.where;
    const file = envFileBaseURL(path.dirname(construction.getSourceFile().fileName), this.envFiles);
    return file && relativeFile(this.ctx.cwd, file);
  }

  private indirectWrites: { root: string; where: string }[] | undefined;

  /** The folder of the nearest package.json above a file (its own folder when there is none). */
  private packageRootOf(file: string): string {
    return this.ctx.layout.packageFor(file)?.dir ?? path.dirname(file);
  }

  /**
   * Code that may set OPENAI_BASE_URL without naming it, by package root: a write to the
   * environment with a computed key, `Object.assign(process.env, …)`, `process.env = {…}` (a
   * settings file copied in), or an env file it loads by its path (dotenv's `path`, Nest's
   * `envFilePath`) that sets it to another host (probe of gateways). Tests, tool configurations
   * and scripts run in processes of their own and do not count (corpus: a vitest.config.mts, a
   * build script and test helpers had made every default client of their monorepos unknown).
   */
  private indirectBaseURL(): { root: string; where: string }[] {
    if (this.indirectWrites) return this.indirectWrites;
    const found: { root: string; where: string }[] = [];
    this.writes.filesOfRun('env', (text, file) => {
      if (runsInOwnProcess(relativeFile(this.ctx.cwd, file))) return false;
      const root = this.packageRootOf(file);
      const code = withoutComments(text);
      if (UNNAMED_ENV_WRITE.test(code)) found.push({ root, where: `${relativeFile(this.ctx.cwd, file)} (a write to the environment that does not name it)` });
      const loaded = /\.env\b|\benv['"`]/.test(code) ? namedEnvFileBaseURL(file, code, root) : undefined;
      if (loaded) found.push({ root, where: `${relativeFile(this.ctx.cwd, loaded)} (loaded by ${relativeFile(this.ctx.cwd, file)})` });
      return false;
    });
    return (this.indirectWrites = found);
  }

  /** Read the client options (P-DEFAULT, P-OPENAI-HOST, P-AZURE-*, P-NONOPENAI, P-RUNTIME, P-OPTS-SPREAD). */
  private readOptions(arg: ts.Expression | undefined, evidence: string, depth: number): Origin {
    const sdk = (provider: Provider, reason?: ReasonRef, notes: Note[] = [], isDefault = false): Origin =>
      ({ kind: 'sdk', provider, evidence, reason, notes, isDefault });
    if (!arg) return sdk('openai', undefined, [], true);
    if (this.holdsNoOptions(arg)) return sdk('openai', undefined, [IGNORED_ARGUMENT], true);
    const options = this.optionsObject(arg, depth);
    if (options === 'opaque') return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
    const { props, opaqueSpread, conditionalBaseURL } = options;
    if (opaqueSpread) return sdk('unknown', { code: 'provider-unknown', detail: 'options-spread' });
    const provider = props.get('provider');
    if (provider) return sdk('other', { code: 'provider-not-openai', detail: shortText(provider, 30) });
    const query = props.get('defaultQuery');
    const hasApiVersion = query !== undefined && this.mentionsApiVersion(query);
    if (hasApiVersion) return sdk('azure-legacy', { code: 'azure-legacy' });
    if (conditionalBaseURL) return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
    if (props.has('dataResidency')) return sdk('openai');
    const baseURL = props.get('baseURL');
    const origin = baseURL ? this.fromBaseURL(baseURL, sdk) : sdk('openai', undefined, [], true);
    const hint = origin.kind === 'sdk' && origin.isDefault ? vendorHint(props) : undefined;
    // the key or headers name another vendor: reached through OPENAI_BASE_URL, which may not serve /responses
    return hint ? { kind: 'sdk', provider: 'unknown', evidence: `${evidence}; ${hint}`, reason: { code: 'provider-unknown', detail: 'key-hint' }, notes: [], isDefault: false } : origin;
  }

  /**
   * `new OpenAI(process.env.OPENAI_API_KEY)`, a common slip: the SDK reads its options off the
   * argument, and a string, number, boolean or undefined holds none of them, so the client is the
   * default one (the key comes from OPENAI_API_KEY, before the migration and after it alike).
   * Judged by the checker's type, so an `any` (an untyped parameter) stays unproven; a string
   * literal or template and `process.env.X` are strings wherever they are written.
   */
  private holdsNoOptions(arg: ts.Expression): boolean {
    const e = unwrap(arg);
    if (stringValue(e) !== undefined || ts.isTemplateExpression(e) || envVariable(e) !== undefined) return true; // also untyped, in JavaScript
    const type = this.ctx.checker.getTypeAtLocation(arg);
    const parts = type.isUnion() ? type.types : [type];
    return parts.every((t) => (t.flags & PRIMITIVE_WITHOUT_OPTIONS) !== 0);
  }

  private fromBaseURL(value: ts.Expression, sdk: (p: Provider, r?: ReasonRef, n?: Note[], d?: boolean) => Origin): Origin {
    const v = unwrap(value);
    const literal = stringValue(v) ?? this.constString(v);
    if (literal !== undefined) return this.fromUrl(literal, sdk);
    if (isUndefinedLike(v)) return sdk('openai', undefined, [], true);
    const envName = envVariable(v);
    if (envName !== undefined) {
      if (envName === SDK_BASE_URL_ENV) return sdk('openai', undefined, [], true);
      if (this.ctx.allow.envNames.has(envName)) return allowed(sdk, `env:${envName}`);
      return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
    }
    // process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1' is the SDK default spelled out
    if (ts.isBinaryExpression(v) && (v.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || v.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      const left = envVariable(unwrap(v.left));
      const right = stringValue(v.right);
      if (left === SDK_BASE_URL_ENV && (right === SDK_DEFAULT_BASE_URL || right === `${SDK_DEFAULT_BASE_URL}/`)) {
        return sdk('openai', undefined, [], true);
      }
      return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
    }
    if (ts.isTemplateExpression(v)) return this.fromTemplate(v, sdk);
    return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
  }

  private fromUrl(url: string, sdk: (p: Provider, r?: ReasonRef, n?: Note[], d?: boolean) => Origin): Origin {
    const parsed = parseUrl(url);
    if (parsed.path.includes(AZURE_DEPLOYMENTS)) return sdk('azure-legacy', { code: 'azure-legacy' });
    if (AZURE_V1_SUFFIX.test(parsed.path) && AZURE_HOST.test(parsed.host)) return azureV1(sdk);
    if (parsed.host && isOpenAIHost(parsed.host)) return sdk('openai');
    if (parsed.origin && this.ctx.allow.origins.has(parsed.origin)) return allowed(sdk, parsed.origin);
    return sdk('other', { code: 'provider-not-openai', detail: parsed.host || url });
  }

  private fromTemplate(t: ts.TemplateExpression, sdk: (p: Provider, r?: ReasonRef, n?: Note[], d?: boolean) => Origin): Origin {
    // `${GROQ_HOST}/openai/v1` with GROQ_HOST a const: the URL, or its host, is known (probe of
    // multi-provider code: Groq's own base URL ends in /openai/v1, as Azure's does)
    const known = this.knownTemplatePrefix(t);
    if (known.whole) return this.fromUrl(known.text, sdk);
    const prefix = /^https?:\/\/([^/?#:]+)(?::\d+)?[/?#]/i.exec(known.text);
    if (prefix && known.text !== t.head.text && !AZURE_HOST.test(prefix[1]) && !isOpenAIHost(prefix[1])) {
      const { origin } = parseUrl(known.text);
      if (this.ctx.allow.origins.has(origin)) return allowed(sdk, origin);
      return sdk('other', { code: 'provider-not-openai', detail: prefix[1].toLowerCase() });
    }
    const statics = [t.head.text, ...t.templateSpans.map((s) => s.literal.text)];
    const tail = statics[statics.length - 1];
    if (statics.some((s) => s.includes(AZURE_DEPLOYMENTS) || s.includes('/openai/deployments'))) return sdk('azure-legacy', { code: 'azure-legacy' });
    // `${process.env.AZURE_OPENAI_ENDPOINT}/openai/v1`: the user vouches for the variable with
    // --allow-base-url env:NAME, as for `baseURL: process.env.NAME`
    const envName = t.head.text === '' ? this.envNameOf(t.templateSpans[0].expression) : undefined;
    if (envName !== undefined && this.ctx.allow.envNames.has(envName)) return AZURE_V1_SUFFIX.test(tail) ? azureV1(sdk) : allowed(sdk, `env:${envName}`);
    // `https://${resource}.openai.azure.com/openai/v1`: Azure when its host is in view, the resource
    // name aside; `${process.env.ENDPOINT}/openai/v1` may be Groq's base URL as well (probe of gateways)
    if (AZURE_V1_SUFFIX.test(tail) && AZURE_HOST.test(parseUrl(statics.join('resource')).host)) return azureV1(sdk);
    const head = parseUrl(t.head.text);
    if (head.host && t.head.text.includes('/', head.origin.length) && isOpenAIHost(head.host)) return sdk('openai');
    return sdk('unknown', { code: 'provider-unknown', detail: 'runtime-base-url' });
  }

  /** A file of the run writes `member` of the object `holder` names (by that name, or the one it is declared with). */
  private memberWritten(holder: ts.Identifier, member: string): boolean {
    const decl = declarationOf(this.ctx.checker, holder);
    const target = decl && (ts.isImportSpecifier(decl) || ts.isImportClause(decl)) ? aliasTarget(this.ctx.checker, decl) : decl;
    const names = new Set([holder.text, ...(target && ts.isVariableDeclaration(target) && ts.isIdentifier(target.name) ? [target.name.text] : [])]);
    for (const name of names) {
      const n = escapeRegExp(name);
      const m = escapeRegExp(member);
      const write = new RegExp(`(?<![\\w$.])${n}\\s*(?:\\.\\s*${m}|\\[[^\\]]*\\])\\s*(?:=(?![=>])|\\?\\?=|\\|\\|=)|(?:Object\\s*\\.\\s*(?:assign|defineProperty)|Reflect\\s*\\.\\s*set)\\s*\\(\\s*${n}\\b`);
      if (this.writes.filesOfRun(name, (text) => write.test(withoutComments(text))).length) return true;
    }
    return false;
  }

  /** The environment variable a value reads (`process.env.NAME`), directly or through a const. */
  private envNameOf(v: ts.Expression, depth = 0): string | undefined {
    const e = unwrap(v);
    const name = envVariable(e);
    if (name !== undefined || depth > 4) return name;
    const init = this.constInitializer(e);
    return init && this.envNameOf(init, depth + 1);
  }

  /** A template's text up to its first span no const gives (`whole` when every span is one). */
  private knownTemplatePrefix(t: ts.TemplateExpression): { text: string; whole: boolean } {
    let text = t.head.text;
    for (const span of t.templateSpans) {
      const value = this.constString(span.expression);
      if (value === undefined) return { text, whole: false };
      text += value + span.literal.text;
    }
    return { text, whole: true };
  }

  /** A string a const holds (`BASE`, also imported), or a property of a const object (`settings.gateway`). */
  private constString(v: ts.Expression, depth = 0): string | undefined {
    const e = unwrap(v);
    if (depth > 4) return undefined;
    const literal = stringValue(e);
    if (literal !== undefined) return literal;
    if (ts.isPropertyAccessExpression(e)) {
      const holder = unwrap(e.expression);
      const obj = this.constInitializer(holder);
      const value = obj && ts.isObjectLiteralExpression(obj) ? propertyValue(obj.properties.find((p) => propertyNameText(p.name) === e.name.text)) : undefined;
      // a const object's member is written all the same (`settings.baseURL = LOCAL`, an
      // Object.assign over it): its initializer is not what the client gets (probe of providers)
      if (value && ts.isIdentifier(holder) && this.memberWritten(holder, e.name.text)) return undefined;
      return value && this.constString(value, depth + 1);
    }
    const init = this.constInitializer(e);
    return init && this.constString(init, depth + 1);
  }

  /** The initialiser of the const an identifier names, through imports of project modules. */
  private constInitializer(e: ts.Expression): ts.Expression | undefined {
    if (!ts.isIdentifier(e)) return undefined;
    let decl = declarationOf(this.ctx.checker, e);
    if (decl && (ts.isImportSpecifier(decl) || ts.isImportClause(decl))) decl = aliasTarget(this.ctx.checker, decl);
    return decl && ts.isVariableDeclaration(decl) && decl.initializer && (decl.parent.flags & ts.NodeFlags.Const) ? unwrap(decl.initializer) : undefined;
  }

  private mentionsApiVersion(query: ts.Expression): boolean {
    const q = unwrap(query);
    if (ts.isObjectLiteralExpression(q)) return q.properties.some((p) => propertyNameText(p.name) === 'api-version');
    return q.getText().includes('api-version');
  }

  /**
   * The options object as a property map: a literal, or a local variable holding one plus the
   * later `opts.x = …` assignments to it. Conditional assignments of baseURL are P-RUNTIME.
   */
  private optionsObject(arg: ts.Expression, depth: number):
    | { props: Map<string, ts.Expression>; opaqueSpread: boolean; conditionalBaseURL: boolean }
    | 'opaque' {
    const e = unwrap(arg);
    const props = new Map<string, ts.Expression>();
    let opaqueSpread = false;
    let conditionalBaseURL = false;
    const readLiteral = (obj: ts.ObjectLiteralExpression, level: number): void => {
      for (const p of obj.properties) {
        if (ts.isSpreadAssignment(p)) {
          const inner = unwrap(p.expression);
          const resolved = ts.isObjectLiteralExpression(inner) ? inner : this.localObject(inner);
          if (resolved && level < 4) readLiteral(resolved, level + 1);
          else opaqueSpread = true;
          continue;
        }
        const name = propertyNameText(p.name);
        const value = propertyValue(p);
        if (name && value) props.set(name, value);
      }
    };
    let obj: ts.ObjectLiteralExpression | undefined;
    let variable: ts.VariableDeclaration | undefined;
    if (ts.isObjectLiteralExpression(e)) obj = e;
    else if (ts.isIdentifier(e)) {
      const decl = declarationOf(this.ctx.checker, e);
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.isObjectLiteralExpression(unwrap(decl.initializer))) {
        obj = unwrap(decl.initializer) as ts.ObjectLiteralExpression;
        variable = decl;
      }
    }
    if (!obj) return 'opaque';
    readLiteral(obj, 0);
    if (variable) {
      // the object handed on, aliased or written by a key the tool cannot read (Object.assign(opts,
      // { baseURL }), usePreset(opts), const cfg = opts): what it holds at `new` is not in view
      if (ts.isIdentifier(variable.name) && referencesOf(this.ctx.checker, variable.name).some((ref) => ref !== variable!.name && !readsOrWritesMember(ref))) return 'opaque';
      // later writes: opts.baseURL = …, opts['baseURL'] = …  (P09: conditional → runtime)
      const symbol = this.ctx.checker.getSymbolAtLocation(variable.name);
      const scope = variable.getSourceFile();
      walk(scope, (n) => {
        if (!ts.isBinaryExpression(n) || n.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
        const left = unwrap(n.left);
        if (!(ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) || !ts.isIdentifier(left.expression)) return;
        if (this.ctx.checker.getSymbolAtLocation(left.expression) !== symbol) return;
        const key = ts.isPropertyAccessExpression(left) ? left.name.text : stringValue(left.argumentExpression);
        if (key === undefined) return;
        if (isConditional(n, variable!)) {
          if (key === 'baseURL' || key === 'provider' || key === 'defaultQuery') conditionalBaseURL = true;
        } else props.set(key, n.right);
      });
    }
    void depth;
    return { props, opaqueSpread, conditionalBaseURL };
  }

  private localObject(e: ts.Expression): ts.ObjectLiteralExpression | undefined {
    if (!ts.isIdentifier(e)) return undefined;
    const decl = declarationOf(this.ctx.checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) {
      const init = unwrap(decl.initializer);
      if (ts.isObjectLiteralExpression(init)) return init;
    }
    return undefined;
  }

  /**
   * `require('./client')` or `require('./client').client` of a project module: the value its
   * `module.exports = …` / `exports.client = …` assigns.
   */
  private commonJsExport(expr: ts.Expression): ts.Expression[] | undefined {
    if (ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr)) {
      const member = ts.isPropertyAccessExpression(expr) ? expr.name.text : stringValue(expr.argumentExpression);
      return requiredExports(this.ctx, expr.expression, member);
    }
    return requiredExports(this.ctx, expr, undefined);
  }

  // ---- names ---------------------------------------------------------------------------------

  private fromIdentifier(id: ts.Identifier, depth: number): Origin[] {
    const decl = declarationOf(this.ctx.checker, id) ?? this.autoImported(id);
    if (!decl) return this.byType(id, 'injected', `${id.text} in ${locationOf(this.ctx, id)} (not declared in view)`);
    return this.fromDeclaration(decl, id, depth);
  }

  /**
   * The export a Nuxt app auto-imports under an undeclared name (auto-imports.ts), when exactly one
   * of the modules it scans declares it. A module the program does not hold yet is asked for: the
   * scan loads it and runs again.
   */
  private autoImported(id: ts.Identifier): ts.Declaration | undefined {
    const found: ts.Declaration[] = [];
    const file = id.getSourceFile().fileName;
    const dir = path.dirname(file);
    let sources = this.autoImports.get(dir);
    if (!sources) this.autoImports.set(dir, (sources = autoImportSources(file)));
    const { files, missing } = loadedSourceFiles(this.ctx, sources);
    const pending = missing.length > 0 && Boolean(this.ctx.callerSearch);
    for (const sf of files) {
      const exported = this.ctx.checker.getSymbolAtLocation(sf)?.exports?.get(id.escapedText);
      const symbol = exported && exported.flags & ts.SymbolFlags.Alias ? this.ctx.checker.getAliasedSymbol(exported) : exported;
      if (symbol?.declarations?.[0]) found.push(symbol.declarations[0]);
    }
    return !pending && found.length === 1 ? found[0] : undefined;
  }

  private fromDeclaration(decl: ts.Declaration, use: ts.Node, depth: number): Origin[] {
    if (ts.isVariableDeclaration(decl)) {
      if (!ts.isIdentifier(decl.name)) return this.byType(use, 'injected', `${shortText(use, 30)} in ${locationOf(this.ctx, use)}`);
      const values: ts.Expression[] = [];
      if (decl.initializer) values.push(decl.initializer);
      const assigned = decl.parent.flags & ts.NodeFlags.Const ? [] : valuesAssignedTo(this.ctx.checker, decl as ts.VariableDeclaration & { name: ts.Identifier });
      if (!assigned) return this.byType(decl.name, 'injected', `${decl.name.text} in ${locationOf(this.ctx, decl)} (also written by a destructuring, compound or loop assignment)`);
      values.push(...assigned);
      if (values.length === 0) return this.byType(decl.name, 'injected', `${decl.name.text} in ${locationOf(this.ctx, decl)} (never assigned in view)`);
      return values.flatMap((v) => this.origins(v, depth));
    }
    if (ts.isParameter(decl)) return this.fromParameter(decl, [], undefined, `${shortText(decl.name, 30)} is a parameter in ${locationOf(this.ctx, decl)}`, undefined, depth);
    if (ts.isBindingElement(decl)) {
      const target = aliasTarget(this.ctx.checker, decl);
      if (target) return this.fromDeclaration(target, use, depth);
      const bound = bindingOfDeclaration(this.ctx, decl);
      if (bound?.kind === 'unresolved') return this.unresolved(bound.module, `${shortText(decl.name, 30)} in ${locationOf(this.ctx, decl)}`);
      const fromObject = this.bindingElementValue(decl);
      if (fromObject) return this.origins(fromObject, depth);
      // `const { aiClient } = await import('@/lib/ai')`: the module's export of that name
      if (ts.isObjectBindingPattern(decl.parent) && importedModule(decl.parent)) {
        const key = decl.propertyName ? propertyNameText(decl.propertyName) : ts.isIdentifier(decl.name) ? decl.name.text : undefined;
        const exported = key ? this.ctx.checker.getTypeAtLocation(decl.parent).getProperty(key)?.declarations?.[0] : undefined;
        if (exported) return this.fromDeclaration(exported, use, depth);
        const module = moduleOfRequire((decl.parent.parent as ts.VariableDeclaration).initializer!) ?? '?';
        return this.unresolved(module, `${shortText(decl.name, 30)} imported in ${locationOf(this.ctx, decl)}`);
      }
      const root = bindingRoot(decl);
      // `const { openai, prompt } = options` in the body: as if destructured in the parameter list
      const param = root && ts.isVariableDeclaration(root) ? destructuredParameter(this.ctx.checker, root) : undefined;
      if (root && (ts.isParameter(root) || param)) {
        const from = param ?? (root as ts.ParameterDeclaration);
        const evidence = `${shortText(decl.name, 30)} is destructured from a parameter in ${locationOf(this.ctx, decl)}`;
        const keys = bindingPath(decl);
        return keys && ts.isIdentifier(decl.name) ? this.fromParameter(from, keys, decl.initializer, evidence, use, depth, decl.name) : this.fromTyped(from, undefined, evidence, use);
      }
      return this.byType(use, 'injected', `${shortText(decl.name, 30)} in ${locationOf(this.ctx, decl)}`);
    }
    if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isNamespaceImport(decl) || ts.isExportSpecifier(decl) || ts.isImportEqualsDeclaration(decl)) {
      const binding = bindingOfExpression(this.ctx, use as ts.Expression);
      if (binding?.kind === 'unresolved') return this.unresolved(binding.module, `${shortText(use, 30)} imported in ${locationOf(this.ctx, decl)}`);
      if (binding) return fromPackage(binding.module, `${shortText(use, 30)} imported from '${binding.module}' in ${locationOf(this.ctx, decl)}`);
      const target = aliasTarget(this.ctx.checker, decl);
      if (target) return this.fromDeclaration(target, use, depth);
      return this.unresolved(moduleTextOf(decl) ?? '?', `${shortText(use, 30)} imported in ${locationOf(this.ctx, decl)}`);
    }
    if (ts.isExportAssignment(decl)) return this.origins(decl.expression, depth);
    if (ts.isPropertyAssignment(decl)) return this.origins(decl.initializer, depth);
    if (ts.isShorthandPropertyAssignment(decl)) return this.fromIdentifier(decl.name, depth);
    if (ts.isPropertyDeclaration(decl) || ts.isGetAccessorDeclaration(decl)) return this.fromClassMember(decl, use, depth);
    if (ts.isPropertySignature(decl)) return this.fromTyped(decl, decl.type, `${shortText(use, 30)} is declared by an interface in ${locationOf(this.ctx, decl)}`);
    if (ts.isBinaryExpression(decl)) return this.origins(decl.right, depth); // exports.client = …
    if (ts.isPropertyAccessExpression(decl) && ts.isBinaryExpression(decl.parent)) return this.origins(decl.parent.right, depth);
    if (ts.isClassDeclaration(decl)) {
      // `AIService.chat.completions.create(…)` on a class whose static member hands out a client's chat
      const held = this.heldClient(decl, depth);
      if (held) return [{ kind: 'wrapper', provider: held, evidence: `${shortText(use, 30)}, a project class that holds an openai client (${locationOf(this.ctx, decl)})` }];
    }
    if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) return [{ kind: 'foreign', evidence: `${shortText(use, 30)} is a ${ts.isClassDeclaration(decl) ? 'class' : 'function'}` }];
    return this.byType(use, 'injected', `${shortText(use, 30)} in ${locationOf(this.ctx, use)}`);
  }

  private bindingElementValue(decl: ts.BindingElement): ts.Expression | undefined {
    const pattern = decl.parent;
    const holder = pattern.parent;
    const key = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
    if (!key || !ts.isObjectBindingPattern(pattern) || !ts.isVariableDeclaration(holder) || !holder.initializer) return undefined;
    const init = unwrap(holder.initializer);
    const obj = ts.isObjectLiteralExpression(init) ? init : this.localObject(init);
    return obj ? propertyValue(obj.properties.find((p) => propertyNameText(p.name) === key)) : undefined;
  }

  // ---- members -------------------------------------------------------------------------------

  private fromMember(expr: ts.PropertyAccessExpression | ts.ElementAccessExpression, depth: number): Origin[] {
    const object = unwrap(expr.expression);
    const name = ts.isPropertyAccessExpression(expr) ? expr.name.text : stringValue(expr.argumentExpression);
    if (object.kind === ts.SyntaxKind.ThisKeyword && name) {
      const cls = thisClass(object);
      if (cls) return this.fromThisField(cls, name, expr, depth);
    }
    // a member of a package module (`OpenAI.OpenAI` is a class, not a client; `sdk.client` of another SDK)
    const member = bindingOfExpression(this.ctx, expr);
    if (member?.kind === 'unresolved') return this.unresolved(member.module, `${shortText(expr, 30)} in ${locationOf(this.ctx, expr)}`);
    if (member) return fromPackage(member.module, `${shortText(expr, 30)} is an export of '${member.module}'`);
    // the dev-server singleton: `globalForOpenAI.openai ?? new OpenAI()`
    const cache = name ? this.globalCacheAlias(object) : undefined;
    if (cache && name) return this.fromGlobalCache(cache, name, expr, depth);
    // an object literal we can see: const deps = { client: new OpenAI() }
    if (name) {
      // `this.client` in a method of the literal is a member of whatever object the method is
      // called on: a copy (`{ ...svc, client: groq }`) counts as a use the tool does not follow
      const receiver = object.kind === ts.SyntaxKind.ThisKeyword;
      const holder = ts.isIdentifier(object) ? this.writes.objectHolder(object) : receiver ? literalOfThis(object) : undefined;
      const obj = ts.isObjectLiteralExpression(object) ? object : holder && (unwrap(holder.initializer!) as ts.ObjectLiteralExpression);
      const value = obj && propertyValue(obj.properties.find((p) => propertyNameText(p.name) === name));
      if (value) {
        // and what is written there after the literal: `deps.client = …`, `deps['client'] ??= …`
        const written = holder ? this.writes.holderWrites(holder, name, receiver) : [];
        if ('unseen' in written) return this.byType(expr, 'injected', `${shortText(expr, 40)} in ${locationOf(this.ctx, expr)} (${written.unseen})`);
        if ('hidden' in written) return this.byType(expr, 'injected', `${shortText(expr, 40)} in ${locationOf(this.ctx, expr)} (${this.writes.hiddenWrite(written.hidden)})`);
        return [...this.origins(value, depth), ...written.flatMap((w) => this.valueAt(w.value, w.rest, undefined, w.by, depth))];
      }
    }
    // `options.client` of a parameter: what every caller passes there (W-INJECTED)
    let unproven: string | undefined;
    if (name && ts.isIdentifier(object)) {
      const param = declarationOf(this.ctx.checker, object);
      if (param && ts.isParameter(param) && ts.isIdentifier(param.name) && !(param.type && this.classesOfTypeNode(param.type))) {
        const found = this.fromInjected(param, [name], undefined, depth);
        if ('origins' in found) return found.origins;
        unproven = found.why;
      }
    }
    const symbol = this.ctx.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr.argumentExpression);
    const decl = symbol?.declarations?.[0];
    // its type is then all that is known, and the report says why the callers did not prove it
    if (unproven && decl && ts.isPropertySignature(decl)) return this.fromTyped(decl, decl.type, `${shortText(expr, 30)} is declared by an interface in ${locationOf(this.ctx, decl)} (${unproven})`);
    const prototypeField = object.kind === ts.SyntaxKind.ThisKeyword && name && symbol ? this.functionFieldWritten(symbol, name) : undefined;
    if (prototypeField) return this.byType(expr, 'injected', `${shortText(expr, 40)} in ${locationOf(this.ctx, expr)} (${prototypeField})`);
    if (decl && isProjectFile(decl.getSourceFile())) {
      const writer = this.writes.literalMemberWriter(decl);
      if (writer) return this.byType(expr, 'injected', `${shortText(expr, 40)} in ${locationOf(this.ctx, expr)} (${writer})`);
      return this.fromDeclaration(decl, expr, depth);
    }
    return this.byType(expr, 'injected', `${shortText(expr, 40)} in ${locationOf(this.ctx, expr)}`);
  }

  /**
   * P-SIGNALS / P-SUBCLASS for a constructor function (`function Bot() { this.ai = new OpenAI(); }`
   * with `Bot.prototype.ask` reading `this.ai`), which has no class for the field rules: why its
   * field cannot be read from the one write the checker declares it by. Another `this.ai = …` (a
   * prototype method), a write of the member anywhere else in the run (`bot.ai = …`), or a function
   * built on it (`Base.call(this)`, `Object.create(Base.prototype)`, `inherits(Sub, Base)`).
   */
  private functionFieldWritten(symbol: ts.Symbol, name: string): string | undefined {
    // in JavaScript the checker declares such a field by its assignments (`this.ai = …`)
    const decls = symbol.declarations ?? [];
    const thisWrite = (d: ts.Node) => ts.isBinaryExpression(d) && ts.isPropertyAccessExpression(d.left) && d.left.expression.kind === ts.SyntaxKind.ThisKeyword;
    const fn = decls[0] && thisWrite(decls[0]) ? enclosingFunctionOf(decls[0]) : undefined;
    if (!fn || !ts.isFunctionDeclaration(fn) && !ts.isFunctionExpression(fn)) return undefined;
    if (decls.length > 1) return `${name} is written in ${decls.length} places (${decls.map((d) => locationOf(this.ctx, d)).join(', ')})`;
    const writes = new RegExp(memberWritePattern(name).source, 'g');
    let count = 0;
    const files = this.writes.filesOfRun(name, (text) => {
      const found = text.match(writes)?.length ?? 0;
      count += found;
      return found > 0;
    });
    if (count > 1) return `${name} is written elsewhere too (${files.map((f) => relativeFile(this.ctx.cwd, f)).join(', ')})`;
    const ctor = fn.name?.text ?? (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name) ? fn.parent.name.text : undefined);
    if (!ctor) return undefined;
    const derived = new RegExp(`\\b${ctor}\\s*\\.\\s*(?:call|apply)\\s*\\(\\s*this\\b|Object\\s*\\.\\s*create\\s*\\(\\s*${ctor}\\s*\\.\\s*prototype|inherits\\s*\\(\\s*[\\w$.]+\\s*,\\s*${ctor}\\s*\\)`);
    const sub = this.writes.filesOfRun(ctor, (text) => derived.test(text));
    return sub.length ? `${ctor} is extended in ${sub.map((f) => relativeFile(this.ctx.cwd, f)).join(', ')}` : undefined;
  }

  /**
   * `const globalForOpenAI = globalThis as unknown as { openai?: OpenAI }`: a module's typed alias
   * of the global object, the idiom that keeps one client across a dev server's reloads
   * (`export const openai = globalForOpenAI.openai ?? new OpenAI()`, then
   * `globalForOpenAI.openai = openai`). Only a const declared in a project file counts.
   */
  private globalCacheAlias(object: ts.Expression): ts.VariableDeclaration | undefined {
    if (!ts.isIdentifier(object)) return undefined;
    const decl = declarationOf(this.ctx.checker, object);
    if (!decl || !ts.isVariableDeclaration(decl) || !(decl.parent.flags & ts.NodeFlags.Const) || !decl.initializer || !isProjectFile(decl.getSourceFile())) return undefined;
    const init = unwrap(decl.initializer);
    return ['globalThis', 'global'].some((g) => isGlobal(this.ctx.checker, init, g)) ? decl : undefined;
  }

  /**
   * A slot of that alias holds what its module writes there (`alias.openai = …`, `??=`, `||=`,
   * `alias['openai'] = …`) or nothing yet, unless a write hides the value (`[alias.openai] = …`);
   * the write of the value being defined is the cycle that adds nothing. Another module could
   * write the global too, so a slot its own module never writes is not followed.
   */
  private fromGlobalCache(alias: ts.VariableDeclaration, name: string, use: ts.Node, depth: number): Origin[] {
    const evidence = `${shortText(use, 40)} (a slot of the global object) in ${locationOf(this.ctx, use)}`;
    const values = ts.isIdentifier(alias.name) ? this.writes.writesTo(alias.getSourceFile(), alias.name, [name]) : [];
    if ('hidden' in values) return this.byType(use, 'injected', `${evidence} (${this.writes.hiddenWrite(values.hidden)})`);
    if (values.length === 0) return this.byType(use, 'injected', `${evidence}, never written in its module`);
    // another module of the run that names the global object and writes a member of that name
    // may put something else there (a seed script, a test's double)
    const own = path.normalize(alias.getSourceFile().fileName);
    const search = this.ctx.callerSearch;
    const writes = memberWritePattern(name);
    const writer = search?.filesNaming('globalThis').map((f) => path.normalize(f)).find((f) => f !== own && writes.test(search.textOf(f) ?? ''));
    if (writer) return this.byType(use, 'injected', `${evidence}; ${relativeFile(this.ctx.cwd, writer)} writes a member ${name} and names the global object too`);
    const unseen = this.writes.writtenOutside(own, (text) => /\bglobalThis\b/.test(text) && writes.test(text));
    if (unseen) return this.byType(use, 'injected', `${evidence}; a member ${name} of the global object may be written in ${unseen}`);
    return values.flatMap((w) => this.valueAt(w.value, w.rest, undefined, w.by, depth));
  }

  /**
   * Why the subclasses of a mixin factory's class may not all be in view (lib/scan/mixins.ts): its
   * result used other than extended or built, named outside the paths given, or files naming it
   * not loaded yet. Undefined for a class no factory returns.
   */
  private mixinUse(cls: ts.ClassLikeDeclaration): string | undefined {
    const factory = factoryOf(cls);
    const search = this.ctx.callerSearch;
    if (!factory || !search) return undefined;
    const name = factory.name.text;
    const outside = search.namedOutside(factory.name.getSourceFile().fileName, name);
    if (outside) return `the class ${name} returns may be extended out of view: ${outside}`;
    const { files, missing } = loadedSourceFiles(this.ctx, search.filesNaming(name));
    if (missing.length) return `the modules that name ${name} were not looked at yet`;
    const use = usesOtherThanExtends(this.ctx.checker, factory, files);
    return use && `the class ${name} returns is used in ${locationOf(this.ctx, use)} (${shortText(use, 40)}), where its subclasses are not followed`;
  }

  /** Where the class's methods may run with another `this` (mixins.ts prototypeLent), in the files that name it. */
  private methodsLent(cls: ts.ClassLikeDeclaration): string | undefined {
    const search = this.ctx.callerSearch;
    if (!cls.name || !search) return undefined;
    // only the files that may lend it: they read a prototype, or hand the class to a function;
    // those of its package outside the paths given too, read like the run's
    const name = cls.name.text;
    const own = cls.getSourceFile();
    const handed = new RegExp(`[(,[]\\s*${escapeRegExp(name)}\\s*[,)\\]]`);
    const word = wordPattern(name);
    const mayLend = (text: string) => text.includes('.prototype') || handed.test(text);
    const outside = search.filesOutside(own.fileName, (text) => word.test(text) && mayLend(text));
    if ('why' in outside) return outside.why;
    const lending = [...search.filesNaming(name).filter((f) => mayLend(search.textOf(f) ?? '')), ...outside];
    const { files, missing } = loadedSourceFiles(this.ctx, lending);
    if (missing.length) return `the modules that name ${name} were not looked at yet`;
    const lent = prototypeLent(this.ctx.checker, cls, files.includes(own) ? files : [own, ...files], (id) => resolveClass(this.ctx.checker, id) === cls);
    return lent && `its methods may run with another \`this\` in ${locationOf(this.ctx, lent)} (${shortText(lent, 40)})`;
  }

  /** `this.client`: the field's initialiser, every `this.client = …` in the class and its subclasses, getters. */
  private fromThisField(cls: ts.ClassLikeDeclaration, name: string, use: ts.Node, depth: number): Origin[] {
    if (cls.name) this.ctx.fieldOwners.add(cls.name.text);
    const classes = [cls, ...this.ctx.subclassesOf(cls)];
    const values: ts.Expression[] = [];
    let injected: ts.ParameterDeclaration | undefined;
    let typed: ts.PropertyDeclaration | undefined;
    let subclassSwapsProvider = false;
    const annotations: ts.TypeNode[] = [];
    let hidden: ts.Node | undefined;
    for (const c of classes) {
      for (const m of c.members) {
        if (ts.isPropertyDeclaration(m) && propertyNameText(m.name) === name) {
          if (m.initializer) values.push(m.initializer);
          else typed = m;
          if (m.type) annotations.push(m.type);
        }
        if (ts.isGetAccessorDeclaration(m) && propertyNameText(m.name) === name && m.body) {
          for (const r of returnExpressions(m)) values.push(r);
        }
        if (ts.isConstructorDeclaration(m)) {
          for (const p of m.parameters) {
            if (ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length) injected = p;
          }
        }
      }
      // `this.x = …`, the lazy `this.x ??= …` / `this.x ||= …`, and a static field written through
      // the class name (`Cls.x = …`, `Cls.#x ??= …`); a write whose value no right side shows
      // (`[this.x] = …`, `for (this.x of …)`, `Object.assign(this, opts)`) leaves the field unproven
      hidden ??= this.writes.memberWritesIn(c, name, (t) => this.writes.namesClass(t, c), values);
      if (c !== cls && c.getText().includes('baseURL')) subclassSwapsProvider = true;
    }
    const factory = cls.name ? undefined : factoryOf(cls);
    const evidence = `this.${name} of class ${cls.name?.text ?? (factory ? `returned by ${factory.name.text}` : '(anonymous)')} in ${locationOf(this.ctx, cls)}`;
    // a field declared with another SDK's class (`client!: Groq`) holds that SDK's client whatever
    // builds it (a lazy `new sdk.Groq()` the tool cannot follow): N05, not a site
    const declared = annotations.map((t) => this.classesOfTypeNode(t));
    if (declared.length && declared.every((d) => d?.length && d.every((c) => c === 'foreign'))) {
      return [{ kind: 'foreign', evidence: `${evidence} is declared as ${shortText(annotations[0], 30)}, another SDK's class` }];
    }
    if (subclassSwapsProvider) return [subclassUnknown(`${evidence}; a subclass changes baseURL`)];
    const mixin = this.mixinUse(cls) ?? this.methodsLent(cls);
    if (mixin) return this.byType(use, 'injected', `${evidence} (${mixin})`);
    const outside = this.writes.outsideFieldWrites(cls, classes, name);
    if ('pending' in outside) return this.byType(use, 'injected', `${evidence} (${outside.pending})`);
    hidden ??= outside.hidden;
    // a loose write of anything but a test's double (N04) may have replaced the client
    for (const value of outside.loose) {
      if (hidden) break;
      const origins = this.origins(value, depth);
      if (origins.length && origins.every((o) => o.kind === 'foreign' && o.double)) this.ctx.doubles.add(value.getSourceFile().fileName);
      // whatever else a test writes there is a stand-in too, not a client production reaches
      else if (!TEST_FILE.test(relativeFile(this.ctx.cwd, value.getSourceFile().fileName))) hidden = writeTarget(value);
    }
    if (hidden) return this.byType(use, 'injected', `${evidence} (${this.writes.hiddenWrite(hidden)})`);
    const out = values.flatMap((v) => this.origins(v, depth));
    for (const value of outside.values) {
      // a test's double written into an instance is not a client production reaches (N04)
      const origins = this.origins(value, depth);
      if (origins.every((o) => o.kind === 'foreign' && o.double)) this.ctx.doubles.add(value.getSourceFile().fileName);
      else out.push(...origins.map((o) => ({ ...o, evidence: `${o.evidence}, written into ${shortText(writeTarget(value), 40)} in ${locationOf(this.ctx, value)}` })));
    }
    if (injected) out.push(...this.fromParameter(injected, [], undefined, `this.${name} is a constructor parameter in ${locationOf(this.ctx, injected)}`, undefined, depth));
    if (out.length === 0) {
      if (typed) return this.fromTyped(typed, typed.type, `${evidence} (never constructed in view)`);
      return this.byType(use, 'injected', `${evidence} (never assigned in view)`);
    }
    return out;
  }

  private fromClassMember(decl: ts.PropertyDeclaration | ts.GetAccessorDeclaration, use: ts.Node, depth: number): Origin[] {
    const cls = decl.parent;
    const name = propertyNameText(decl.name);
    if (ts.isClassLike(cls) && name) return this.fromThisField(cls, name, use, depth);
    return this.byType(use, 'injected', `${shortText(use, 30)} in ${locationOf(this.ctx, use)}`);
  }

  // ---- injected clients (W-INJECTED) ----------------------------------------------------------

  private readonly injectedCache = new Map<string, Injected>();
  private readonly injectedActive = new Set<string>();

  /**
   * A parameter that holds the client, or the key `path` of an options parameter (`{ client }`,
   * `options.client`): proven by every call or construction of its holder in view (W-INJECTED);
   * otherwise injected (P-INJECTED), with why in the evidence.
   */
  private fromParameter(param: ts.ParameterDeclaration, path: readonly string[], leafDefault: ts.Expression | undefined, evidence: string, use: ts.Node | undefined, depth: number, local?: ts.Identifier): Origin[] {
    // a parameter typed with another SDK's class, or only with AzureOpenAI, is what its type says
    const classes = path.length === 0 && param.type ? this.classesOfTypeNode(param.type) : undefined;
    if (!classes || classes.includes('openai')) {
      const token = path.length === 0 ? injectToken(this.ctx, param) : undefined;
      if (token) return this.fromToken(param, token, evidence, use, depth);
      const found = this.fromInjected(param, path, leafDefault, depth);
      // a destructured client written again in the function (`client ??= …`): those values too
      const later = 'origins' in found && local ? this.writes.writesTo(param.parent, local, []) : [];
      if ('origins' in found && !('hidden' in later)) {
        return [...found.origins, ...later.flatMap((w) => this.valueAt(w.value, w.rest, undefined, w.by, depth))];
      }
      evidence = `${evidence} (${'why' in found ? found.why : `${local?.text}: ${this.writes.hiddenWrite((later as { hidden: ts.Node }).hidden)}`})`;
    }
    return this.fromTyped(param, path.length ? undefined : param.type, evidence, use);
  }

  /**
   * A constructor parameter the framework fills by token (`@Inject(OPENAI)`, NestJS or Angular):
   * what the token's providers in view give, when every one of them can be read.
   */
  private fromToken(param: ts.ParameterDeclaration, token: ts.Expression, evidence: string, use: ts.Node | undefined, depth: number): Origin[] {
    const provided = tokenProviders(this.ctx, token);
    const why = !provided ? `no provider of ${shortText(token, 30)} in view`
      : 'pending' in provided ? `the providers of ${shortText(token, 30)} are being looked for`
      : provided.unreadable;
    if (provided && 'values' in provided && !why) {
      // the class built by hand too (`new ChatService(new OpenAI({ baseURL }))` in a script): those clients as well
      const direct = this.fromInjected(param, [], undefined, depth, true);
      return [...provided.values.flatMap((v) => this.origins(v, depth)), ...('origins' in direct ? direct.origins : [])];
    }
    return this.fromTyped(param, param.type, `${evidence} (injected by token: ${why})`, use);
  }

  private fromInjected(param: ts.ParameterDeclaration, path: readonly string[], leafDefault: ts.Expression | undefined, depth: number, registered = false): Injected {
    const key = `${param.getSourceFile().fileName}:${param.pos}:${path.join('.')}${registered ? ':registered' : ''}`;
    const cached = this.injectedCache.get(key);
    if (cached) return cached;
    // a holder that passes its own parameter on to itself adds nothing
    if (this.injectedActive.has(key)) return { origins: [] };
    if (depth > MAX_DEPTH) return { why: 'too deep to follow' };
    this.injectedActive.add(key);
    try {
      const result = this.computeInjected(param, path, leafDefault, depth + 1, registered);
      this.injectedCache.set(key, result);
      return result;
    } finally {
      this.injectedActive.delete(key);
    }
  }

  private computeInjected(param: ts.ParameterDeclaration, path: readonly string[], leafDefault: ts.Expression | undefined, depth: number, registered: boolean): Injected {
    if (param.dotDotDotToken) return { why: 'a rest parameter' };
    const fn = param.parent;
    if (!isFunctionLike(fn)) return { why: 'not a parameter of a function' };
    const holder = holderOf(fn);
    if ('why' in holder) return holder;
    const found = invocationsOf(this.ctx, { ...holder, registered });
    if ('why' in found) return found;
    const verb = holder.kind === 'class' ? 'constructed' : 'called';
    if (found.calls.length === 0) return { why: `${holder.name} is never ${verb} in view` };
    // the parameter written in its own function (`client = wrap(client)`, `options.client ??= …`)
    const written = ts.isIdentifier(param.name) ? this.writes.writesTo(fn, param.name, path) : [];
    if ('hidden' in written) return { why: `${param.name.getText()}: ${this.writes.hiddenWrite(written.hidden)}` };
    const index = fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this')).indexOf(param);
    // one origin per distinct client, naming the calls that pass it
    const groups = new Map<string, { origin: Origin; by: string[] }>();
    const doubles: Invocation[] = [];
    const byOf = (call: Invocation) => `${callText(call.expr)} in ${locationOf(this.ctx, call.expr)}`;
    for (const call of found.calls) {
      const by = byOf(call);
      for (const origin of this.argumentOrigins(call, index, param, path, leafDefault, by, depth)) {
        // a test double (N04) passed by a test is not a client the call can reach production through
        if (origin.kind === 'foreign' && origin.double) {
          if (!doubles.includes(call)) doubles.push(call);
          continue;
        }
        const key = originKey(origin);
        const group = groups.get(key) ?? { origin, by: [] };
        if (!group.by.includes(by)) group.by.push(by);
        groups.set(key, group);
      }
    }
    for (const w of written) {
      for (const origin of this.valueAt(w.value, w.rest, undefined, w.by, depth)) {
        const key = originKey(origin);
        if (!groups.has(key)) groups.set(key, { origin, by: [] });
      }
    }
    if (groups.size === 0) return { why: doubles.length ? `every call of ${holder.name} in view passes a test double` : `${holder.name} is never ${verb} with a client in view` };
    const origins = [...groups.values()].map(({ origin, by }) => (by.length ? { ...origin, evidence: `${origin.evidence}, passed by ${by.join(' and ')}` } : origin));
    for (const call of doubles) this.ctx.doubles.add(call.expr.getSourceFile().fileName);
    if (doubles.length) origins[0] = { ...origins[0], evidence: `${origins[0].evidence} (the test doubles passed by ${doubles.map(byOf).join(' and ')} are not clients)` };
    return { origins };
  }

  /** The clients one call passes at `index` (and `path` inside an options object). */
  private argumentOrigins(call: Invocation, index: number, param: ts.ParameterDeclaration, path: readonly string[], leafDefault: ts.Expression | undefined, by: string, depth: number): Origin[] {
    const spread = call.args.findIndex(ts.isSpreadElement);
    if (spread >= 0 && spread <= index) return this.unknown(call.expr, 'injected', `${by} spreads its arguments`);
    const arg = call.args[index];
    if (!arg || isUndefinedLike(unwrap(arg))) {
      if (param.initializer) return this.valueAt(param.initializer, path, leafDefault, by, depth);
      return this.unknown(call.expr, 'injected', `${by} passes no client`);
    }
    return this.valueAt(arg, path, leafDefault, by, depth);
  }

  /**
   * The value at `path` of an options object passed by a call (`{ client }`, a local options
   * variable and what is written into it later: `options.client = …`).
   */
  private valueAt(expr: ts.Expression, path: readonly string[], leafDefault: ts.Expression | undefined, by: string, depth: number): Origin[] {
    if (path.length === 0) return this.origins(expr, depth);
    const e = unwrap(expr);
    const local = ts.isIdentifier(e) ? this.localObject(e) : undefined;
    const decl = local && declarationOf(this.ctx.checker, e as ts.Identifier);
    if (local && decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) {
      const later = this.writes.writesTo(decl.getSourceFile(), decl.name, path);
      if ('hidden' in later) return this.unknown(e, 'injected', `${by} passes options: ${this.writes.hiddenWrite(later.hidden)}`);
      return [...this.valueAt(local, path, leafDefault, by, depth), ...later.flatMap((w) => this.valueAt(w.value, w.rest, undefined, w.by, depth))];
    }
    if (ts.isObjectLiteralExpression(e)) {
      let value: ts.Expression | undefined;
      let spreadAfter = false;
      for (const p of e.properties) {
        if (ts.isSpreadAssignment(p)) spreadAfter = true;
        else if (propertyNameText(p.name) === path[0]) {
          value = propertyValue(p);
          spreadAfter = false;
        }
      }
      if (spreadAfter) return this.unknown(e, 'injected', `${by} passes options with a spread`);
      if (value) return this.valueAt(value, path.slice(1), leafDefault, by, depth);
      if (path.length === 1 && leafDefault) return this.origins(leafDefault, depth);
      return this.unknown(e, 'injected', `${by} passes no ${path[0]}`);
    }
    if (ts.isIdentifier(e)) {
      const param = declarationOf(this.ctx.checker, e);
      if (param && ts.isParameter(param) && ts.isIdentifier(param.name)) {
        const found = this.fromInjected(param, path, leafDefault, depth);
        if ('origins' in found) return found.origins;
        return this.unknown(e, 'injected', `${by} passes ${shortText(e, 30)}, a parameter (${found.why})`);
      }
    }
    return this.unknown(e, 'injected', `${by} passes options built elsewhere`);
  }

  // ---- calls ---------------------------------------------------------------------------------

  private fromCall(call: ts.CallExpression, depth: number): Origin[] {
    const copy = this.withOptions(call, depth);
    if (copy) return copy;
    const where = locationOf(this.ctx, call);
    const fns = this.functionsOf(call.expression);
    const returns = fns.flatMap(returnExpressions);
    // a call handed an openai client: a wrapper (P-WRAPPER) unless it hands a client back
    const wrapped = call.arguments.map((a) => this.wrappedClient(a, depth)).find((p) => p !== undefined);
    const asWrapper = (provider: Provider): Origin[] => [{ kind: 'wrapper', provider, evidence: `${shortText(call.expression, 30)}(…) wraps an openai client in ${where}` }];
    if (returns.length) {
      const origins = returns.flatMap((r) => this.origins(r, depth));
      // a project factory that builds its own shape around the client it was given (`Instructor({ client })`)
      if (wrapped && origins.length && origins.every((o) => o.kind === 'foreign' || o.kind === 'wrapper')) return asWrapper(wrapped);
      return origins;
    }
    // a library call: a wrapper when it is handed an openai client, else another SDK (N05)
    if (wrapped) return asWrapper(wrapped);
    const binding = bindingOfExpression(this.ctx, call.expression);
    if (binding?.kind === 'unresolved') return this.unresolved(binding.module, `${shortText(call.expression, 30)}() in ${where}`);
    // a library handed another vendor's client wraps that client (P-WRAPPER: N05, no site)
    const wrapsOther = binding && call.arguments.some((a) => this.wrapsForeignClient(a, depth));
    if (binding && wrapsOther) return [{ kind: 'foreign', evidence: `${shortText(call.expression, 30)}(…) from '${binding.module}' wraps another SDK's client in ${where}` }];
    if (binding) return fromPackage(binding.module, `${shortText(call.expression, 30)}() from '${binding.module}' in ${where}`);
    return this.byType(call, 'injected', `${shortText(call, 40)} in ${where} (returned by a function out of view)`);
  }

  /**
   * `client.withOptions({ … })`: the SDK's copy of the client, with the options given over the
   * client's own. A base URL (or what else decides the provider) given there decides; otherwise the
   * copy reaches what the client reaches. Undefined when the call is not that.
   */
  private withOptions(call: ts.CallExpression, depth: number): Origin[] | undefined {
    const callee = unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'withOptions') return undefined;
    const client = this.origins(callee.expression, depth);
    if (!client.length || !client.every((o) => o.kind === 'sdk')) return undefined;
    const arg = call.arguments[0];
    if (!arg) return client;
    const own = this.readOptions(arg, `${shortText(callee.expression, 30)}.withOptions(…) in ${locationOf(this.ctx, call)}`, depth);
    return own.kind === 'sdk' && own.isDefault ? client : [own];
  }

  /** The provider of an openai client handed to a library call, if one is. */
  private wrappedClient(arg: ts.Expression, depth: number): Provider | undefined {
    for (const e of handedClients(arg)) {
      // a client the SDK constructs (its provider may still be unknown: a runtime base URL, an
      // options spread), not any value the tool cannot see (those are `injected` or `unresolved`)
      const sdk = this.origins(e, depth).find((o) => o.kind === 'sdk' && (o.provider !== 'unknown' || CONSTRUCTED_UNKNOWN.has(o.reason?.detail ?? '')));
      if (sdk && sdk.kind === 'sdk') return sdk.provider;
    }
    return undefined;
  }

  /** An argument (or a property of an object argument) that is another vendor's client (N05). */
  private wrapsForeignClient(arg: ts.Expression, depth: number): boolean {
    return handedClients(arg).some((v) => {
      const e = unwrap(v);
      if (!ts.isNewExpression(e) && !ts.isIdentifier(e)) return false;
      const origins = this.origins(e, depth);
      return origins.length > 0 && origins.every((o) => o.kind === 'foreign' && !o.double);
    });
  }

  /** The project functions a callee may be: one function, or every factory of a local map (`clients[name]()`). */
  private functionsOf(callee: ts.Expression): ts.FunctionLikeDeclaration[] {
    const one = this.functionOf(callee);
    if (one) return [one];
    const e = unwrap(callee);
    if (!ts.isElementAccessExpression(e) && !ts.isPropertyAccessExpression(e)) return [];
    const obj = this.localObject(unwrap(e.expression));
    if (!obj) return [];
    const key = ts.isPropertyAccessExpression(e) ? e.name.text : stringValue(e.argumentExpression);
    const out: ts.FunctionLikeDeclaration[] = [];
    for (const p of obj.properties) {
      if (key !== undefined && propertyNameText(p.name) !== key) continue;
      const v: ts.Node | undefined = ts.isMethodDeclaration(p) ? p : propertyValue(p) && unwrap(propertyValue(p)!);
      if (v && isFunctionLike(v)) out.push(v);
    }
    return out;
  }

  /**
   * `this.service.getClient` where `service = inject(OpenAIService)` (Angular's `inject` from
   * '@angular/core'): without Angular's types the checker cannot type the field, but the value is
   * the project class's instance, as a constructor parameter typed `OpenAIService` is (corpus:
   * MrKatze/CharlesTherapy). The method of that class, or undefined.
   */
  private injectedMethod(access: ts.PropertyAccessExpression): ts.FunctionLikeDeclaration | undefined {
    const holder = unwrap(access.expression);
    const field = ts.isPropertyAccessExpression(holder) && holder.expression.kind === ts.SyntaxKind.ThisKeyword
      ? symbolOf(this.ctx.checker, holder.name)?.valueDeclaration
      : ts.isIdentifier(holder) ? declarationOf(this.ctx.checker, holder) : undefined;
    const init = field && (ts.isPropertyDeclaration(field) || ts.isVariableDeclaration(field)) && field.initializer ? unwrap(field.initializer) : undefined;
    if (!init || !ts.isCallExpression(init) || init.arguments.length !== 1 || !ts.isIdentifier(init.arguments[0])) return undefined;
    const binding = bindingOfExpression(this.ctx, init.expression);
    if (!binding || binding.kind !== 'export' || binding.module !== '@angular/core' || binding.name !== 'inject') return undefined;
    const cls = declarationOf(this.ctx.checker, init.arguments[0] as ts.Identifier);
    const target = cls && (ts.isImportSpecifier(cls) || ts.isImportClause(cls)) ? aliasTarget(this.ctx.checker, cls) : cls;
    if (!target || !ts.isClassDeclaration(target)) return undefined;
    const method = target.members.find((m) => ts.isMethodDeclaration(m) && m.body && propertyNameText(m.name) === access.name.text);
    return method as ts.MethodDeclaration | undefined;
  }

  /** The project function a callee names: a declaration, a const arrow, a method. */
  private functionOf(callee: ts.Expression): ts.FunctionLikeDeclaration | undefined {
    const e = unwrap(callee);
    if (isFunctionLike(e)) return e as ts.FunctionLikeDeclaration;
    const nameNode = ts.isPropertyAccessExpression(e) ? e.name : ts.isIdentifier(e) ? e : undefined;
    if (!nameNode) return undefined;
    let symbol = this.ctx.checker.getSymbolAtLocation(nameNode);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
      try { symbol = this.ctx.checker.getAliasedSymbol(symbol); } catch { return undefined; }
    }
    if (!symbol && ts.isPropertyAccessExpression(e)) return this.injectedMethod(e);
    for (const d of symbol?.declarations ?? []) {
      if (!isProjectFile(d.getSourceFile())) continue;
      if (isFunctionLike(d) && (d as ts.FunctionLikeDeclaration).body) return d as ts.FunctionLikeDeclaration;
      if (ts.isVariableDeclaration(d) && d.initializer) {
        const init = unwrap(d.initializer);
        if (isFunctionLike(init)) return init as ts.FunctionLikeDeclaration;
      }
      if ((ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer) {
        const init = unwrap(d.initializer);
        if (isFunctionLike(init)) return init as ts.FunctionLikeDeclaration;
      }
    }
    return undefined;
  }

  // ---- types ---------------------------------------------------------------------------------

  /** A parameter, field or interface member: the annotation proves the class, never the URL (P-INJECTED). */
  private fromTyped(decl: ts.Node, type: ts.TypeNode | undefined, evidence: string, use?: ts.Node): Origin[] {
    const classes = type ? this.classesOfTypeNode(type) : undefined;
    if (classes) return classes.map((c) => injectedOrigin(c, evidence));
    return this.byType(use ?? decl, 'injected', evidence);
  }

  private classesOfTypeNode(type: ts.TypeNode): ('openai' | 'azure' | 'foreign')[] | undefined {
    if (ts.isUnionTypeNode(type)) {
      const parts = type.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
      const all = parts.map((t) => this.classesOfTypeNode(t));
      return all.every((x) => x) ? all.flat() as ('openai' | 'azure' | 'foreign')[] : undefined;
    }
    if (ts.isTypeReferenceNode(type)) {
      const name = type.typeName;
      const expr = ts.isIdentifier(name) ? name : ts.isQualifiedName(name) ? name.right : undefined;
      if (!expr) return undefined;
      const id = ts.isIdentifier(name) ? name : undefined;
      const binding = id ? bindingOfExpression(this.ctx, id) : this.qualifiedBinding(name as ts.QualifiedName);
      const cls = sdkClassOf(binding);
      if (cls === 'openai' || cls === 'azure') return [cls];
      if (binding && binding.kind !== 'unresolved') return ['foreign'];
    }
    if (ts.isTypeQueryNode(type)) return undefined;
    return undefined;
  }

  private qualifiedBinding(name: ts.QualifiedName) {
    // OpenAI.OpenAI or ns.AzureOpenAI
    if (!ts.isIdentifier(name.left)) return undefined;
    const base = bindingOfExpression(this.ctx, name.left);
    if (base && base.kind !== 'unresolved' && base.module === 'openai') return { kind: 'export' as const, module: 'openai', name: name.right.text, node: name };
    return base;
  }

  /**
   * Last resort. With a tsconfig the checker knows the receiver's type: an `OpenAI` from the
   * SDK is a client of unknown provider; another package's type is not ours (N05). Without
   * one we cannot tell, and the site is reported rather than dropped.
   */
  private byType(node: ts.Node, why: string, evidence: string): Origin[] {
    if (this.ctx.typeAware) {
      const classes = typeClasses(this.ctx.checker, this.ctx.checker.getTypeAtLocation(node));
      if (classes) return classes.map((c) => injectedOrigin(c, evidence));
    }
    return [{ kind: 'sdk', provider: 'unknown', evidence, reason: { code: 'provider-unknown', detail: why }, notes: [], isDefault: false }];
  }
}


/**
 * A `completions` literal whose `create`/`parse`/`stream` is a function that calls another
 * `….completions.<method>(…)`: the call it passes on (createLLMClient's OpenAI-typed facade in the
 * corpus). A test double answers by itself and has none.
 */
function forwardingCall(completions: ts.ObjectLiteralExpression): ts.CallExpression | undefined {
  for (const method of ['create', 'parse', 'stream']) {
    const member = literalMember(completions, method);
    const fn = member && member !== 'spread' ? (ts.isExpression(member) ? unwrap(member) : member) : undefined;
    if (!fn || !isFunctionLike(fn) || !(fn as ts.FunctionLikeDeclaration).body) continue;
    let found: ts.CallExpression | undefined;
    walk((fn as ts.FunctionLikeDeclaration).body!, (n) => {
      if (found) return false;
      if (ts.isCallExpression(n) && chainOf(n.expression)) found = n;
    });
    if (found) return found;
  }
  return undefined;
}

/** The value of `key` in an object literal (a method counts as itself), 'spread' when a spread may hold it. */
function literalMember(obj: ts.ObjectLiteralExpression, key: string): ts.Node | 'spread' | undefined {
  let found: ts.Node | 'spread' | undefined;
  for (const p of obj.properties) {
    if (ts.isSpreadAssignment(p)) found = 'spread';
    else if (propertyNameText(p.name) === key) found = ts.isMethodDeclaration(p) || ts.isAccessor(p) ? p : propertyValue(p) ?? found;
  }
  return found;
}

/** The module specifier of the import that declares `decl`, as written. */
function moduleTextOf(decl: ts.Node): string | undefined {
  let current: ts.Node | undefined = decl;
  while (current && !ts.isImportDeclaration(current) && !ts.isExportDeclaration(current) && !ts.isImportEqualsDeclaration(current)) current = current.parent;
  if (!current) return undefined;
  if (ts.isImportEqualsDeclaration(current)) return ts.isExternalModuleReference(current.moduleReference) ? stringValue(current.moduleReference.expression) : undefined;
  return current.moduleSpecifier ? stringValue(current.moduleSpecifier) : undefined;
}

function injectedOrigin(cls: 'openai' | 'azure' | 'foreign', evidence: string): Origin {
  if (cls === 'foreign') return { kind: 'foreign', evidence };
  if (cls === 'azure') return { kind: 'sdk', provider: 'azure-legacy', evidence, reason: { code: 'azure-legacy' }, notes: [], isDefault: false };
  return { kind: 'sdk', provider: 'unknown', evidence, reason: { code: 'provider-unknown', detail: 'injected' }, notes: [], isDefault: false };
}

/** Classes of a checker type: SDK classes by declaration file, other packages' classes as foreign. */
function typeClasses(checker: ts.TypeChecker, type: ts.Type): ('openai' | 'azure' | 'foreign')[] | undefined {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  if (type.isUnion()) {
    const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    const all = parts.map((t) => typeClasses(checker, t));
    return all.every((x) => x) ? (all.flat() as ('openai' | 'azure' | 'foreign')[]) : undefined;
  }
  const symbol = type.getSymbol();
  const decl = symbol?.declarations?.[0];
  if (!symbol || !decl) return undefined;
  const file = decl.getSourceFile().fileName;
  if (/\/node_modules\/openai\//.test(file)) {
    if (symbol.name === 'AzureOpenAI') return ['azure'];
    if (symbol.name === 'OpenAI') return ['openai'];
    return undefined;
  }
  // the ECMAScript lib (`Promise<…>`) and @types packages declare no other vendor's client: unknown
  if (/\/node_modules\/(typescript\/lib|@types)\//.test(file)) return undefined;
  if (file.includes('/node_modules/')) return ['foreign'];
  return undefined;
}

/**
 * The values an argument may hand a library as a client: the argument itself when it is a `new`
 * or a name, else the property values of an options literal (`wrap({ client: new OpenAI() })`).
 */
function handedClients(arg: ts.Expression): ts.Expression[] {
  const a = unwrap(arg);
  if (ts.isNewExpression(a) || ts.isIdentifier(a)) return [a];
  if (!ts.isObjectLiteralExpression(a)) return [];
  return a.properties.map(propertyValue).filter((v): v is ts.Expression => v !== undefined);
}

/**
 * A value a package other than `openai` gives: another vendor's client (N05) when the package is a
 * known SDK, a test double when it is a mocking library (N04); from any other package (a company's
 * shared `@acme/ai`, a package absent from the checkout) the client is not proven either way, so
 * the site is listed, never dropped (P-UNRESOLVED).
 */
function fromPackage(module: string, evidence: string): Origin[] {
  if (isOtherSdk(module)) return [{ kind: 'foreign', evidence }];
  if (isMockPackage(module)) return [{ kind: 'foreign', evidence, double: true }];
  return [{
    kind: 'sdk', provider: 'unknown', evidence: `${evidence}, a package that is neither openai nor a known vendor SDK`,
    reason: { code: 'provider-unknown', detail: 'unresolved' }, notes: [], isDefault: false,
  }];
}

function combine(origins: Origin[], fallbackEvidence: string): ClientResolution {
  if (origins.length === 0) {
    return { foreign: false, provider: 'unknown', evidence: fallbackEvidence, reason: { code: 'provider-unknown', detail: 'injected' }, notes: [], isDefault: false };
  }
  const sdk = origins.filter((o): o is Extract<Origin, { kind: 'sdk' }> => o.kind === 'sdk');
  const wrappers = origins.filter((o) => o.kind === 'wrapper');
  const foreign = origins.filter((o) => o.kind === 'foreign');
  if (sdk.length === 0 && wrappers.length === 0) return { foreign: true, provider: 'other', evidence: foreign[0].evidence, notes: [], isDefault: false };
  if (wrappers.length) {
    const w = wrappers[0] as Extract<Origin, { kind: 'wrapper' }>;
    return { foreign: false, provider: w.provider, evidence: w.evidence, reason: { code: 'wrapper-client' }, notes: [], isDefault: false, wrapper: true };
  }
  const evidence = [...new Set(sdk.map((o) => o.evidence))].join('; ');
  if (foreign.length) {
    return { foreign: false, provider: 'unknown', evidence: `${evidence}; or ${foreign[0].evidence}`, reason: { code: 'provider-unknown', detail: 'union' }, notes: [], isDefault: false };
  }
  // P-UNION: every branch must pass; otherwise the failing branch's code
  const failing = sdk.filter((o) => o.reason);
  if (failing.length) {
    // each reason once, the first branch's first
    const [reason, ...others] = new Map(failing.map((o) => [`${o.reason!.code}:${o.reason!.detail ?? ''}`, o.reason!])).values();
    const otherReasons = collapseReasons(others);
    const first = failing[0];
    return { foreign: false, provider: first.provider, evidence, reason, ...(otherReasons.length ? { otherReasons } : {}), notes: first.notes, isDefault: false };
  }
  const providers = new Set(sdk.map((o) => o.provider));
  const provider = providers.size === 1 ? sdk[0].provider : sdk.find((o) => o.provider !== 'openai')!.provider;
  const notes = dedupeNotes(sdk.flatMap((o) => o.notes));
  return { foreign: false, provider, evidence, notes, isDefault: sdk.every((o) => o.isDefault) };
}

/** More than three details of one code (a gateway's thirty hosts) are one reason, naming three and how many more. */
function collapseReasons(reasons: ReasonRef[]): ReasonRef[] {
  const byCode = new Map<string, ReasonRef[]>();
  for (const r of reasons) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r]);
  return [...byCode.values()].flatMap((group) => {
    if (group.length <= 3) return group;
    const shown = group.slice(0, 3).map((r) => r.detail).join(', ');
    return [{ code: group[0].code, detail: `${shown} and ${group.length - 3} more` }];
  });
}

function dedupeNotes(notes: Note[]): Note[] {
  const seen = new Set<string>();
  return notes.filter((n) => (seen.has(n.rule) ? false : (seen.add(n.rule), true)));
}

/** The SDK client's members (openai 6 and 7, core/client) that build or send a request: overriding one may send it elsewhere. */
const REQUEST_PATH_MEMBERS: ReadonlySet<string> = new Set([
  'buildURL', 'buildRequest', 'makeRequest', 'request', 'fetchWithTimeout', 'prepareOptions', 'prepareRequest', 'baseURL', 'fetch', 'withOptions',
]);

function subclassUnknown(evidence: string): Origin {
  return { kind: 'sdk', provider: 'unknown', evidence, reason: { code: 'provider-unknown', detail: 'subclass' }, notes: [], isDefault: false };
}

const PRIMITIVE_WITHOUT_OPTIONS = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.Undefined | ts.TypeFlags.Void;

const IGNORED_ARGUMENT: Note = {
  rule: 'P-DEFAULT',
  level: 'warn',
  message: 'The client is built with a string (or another primitive), not an options object: the SDK ignores it and reads the key from OPENAI_API_KEY, before and after the migration alike.',
};

function azureV1(sdk: (p: Provider, r?: ReasonRef, n?: Note[], d?: boolean) => Origin): Origin {
  return sdk('azure-v1', undefined, [{ rule: 'P-AZURE-V1', level: 'warn', message: 'Azure OpenAI v1 endpoint: `model` is the deployment name and stays as it is.' }]);
}

function allowed(sdk: (p: Provider, r?: ReasonRef, n?: Note[], d?: boolean) => Origin, entry: string): Origin {
  return sdk('other', undefined, [{ rule: 'P-ALLOW', level: 'warn', message: `Base URL allow-listed by --allow-base-url ${entry}; Responses support there is the user's call.` }]);
}

function parseUrl(url: string): { origin: string; host: string; path: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin.toLowerCase(), host: u.hostname.toLowerCase(), path: u.pathname };
  } catch {
    const m = /^(?:[a-z]+:\/\/)?([^/:?#]+)(?::\d+)?([^?#]*)/i.exec(url);
    return { origin: '', host: m?.[1]?.toLowerCase() ?? '', path: m?.[2] ?? url };
  }
}

/** `process.env.NAME` / `process.env['NAME']` → NAME. */
export function envVariable(e: ts.Expression): string | undefined {
  const v = unwrap(e);
  if (!(ts.isPropertyAccessExpression(v) || ts.isElementAccessExpression(v))) return undefined;
  const obj = unwrap(v.expression);
  const isEnv = (ts.isPropertyAccessExpression(obj) && obj.name.text === 'env' && ts.isIdentifier(obj.expression) && obj.expression.text === 'process') ||
    (ts.isPropertyAccessExpression(obj) && obj.name.text === 'env' && ts.isMetaProperty(obj.expression));
  if (!isEnv) return undefined;
  return ts.isPropertyAccessExpression(v) ? v.name.text : stringValue(v.argumentExpression);
}

function isUndefinedLike(e: ts.Expression): boolean {
  return (ts.isIdentifier(e) && e.text === 'undefined') || e.kind === ts.SyntaxKind.NullKeyword;
}


function isConditional(node: ts.Node, decl: ts.Node): boolean {
  let current = node.parent;
  while (current && current !== decl.parent) {
    if (ts.isIfStatement(current) || ts.isConditionalExpression(current) || ts.isSwitchStatement(current) ||
      ts.isTryStatement(current) || ts.isCatchClause(current) || ts.isForStatement(current) || ts.isWhileStatement(current) ||
      (ts.isBinaryExpression(current) && (current.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || current.operatorToken.kind === ts.SyntaxKind.BarBarToken))) {
      return true;
    }
    if (isFunctionLike(current) || ts.isSourceFile(current)) return false;
    current = current.parent;
  }
  return false;
}

function mentionsParameter(node: ts.Node, fn: ts.FunctionLikeDeclaration): boolean {
  const names = new Set(fn.parameters.flatMap((p) => (ts.isIdentifier(p.name) ? [p.name.text] : [])));
  let found = names.size > 0 && ts.isIdentifier(node) && names.has(node.text);
  walk(node, (n) => {
    if (ts.isIdentifier(n) && names.has(n.text)) found = true;
  });
  return found;
}


/** What tells two origins apart when the calls that pass them are grouped. */
function originKey(origin: Origin): string {
  return JSON.stringify([origin.kind, 'provider' in origin ? origin.provider : '', origin.kind === 'sdk' ? origin.reason ?? null : null, origin.evidence]);
}

/** `new ChatService(openai)`, or `new ChatService(…)` when the arguments are long. */
function callText(call: ts.CallExpression | ts.NewExpression): string {
  const text = shortText(call, 200);
  if (text.length <= 40) return text;
  const callee = call.expression.kind === ts.SyntaxKind.SuperKeyword ? 'super' : shortText(call.expression, 30);
  return `${ts.isNewExpression(call) ? 'new ' : ''}${callee}(…)`;
}

/** The keys from a destructured parameter down to this element (`{ deps: { client } }` → deps, client); undefined through an array or a computed key. */
function bindingPath(decl: ts.BindingElement): string[] | undefined {
  const keys: string[] = [];
  let current: ts.Node = decl;
  while (ts.isBindingElement(current)) {
    if (!ts.isObjectBindingPattern(current.parent) || current.dotDotDotToken) return undefined;
    const key = propertyNameText(current.propertyName ?? (ts.isIdentifier(current.name) ? current.name : undefined));
    if (key === undefined) return undefined;
    keys.unshift(key);
    current = current.parent.parent;
  }
  return keys;
}

/**
 * The parameter a `const { … } = param` declaration destructures, when the parameter is a plain
 * name no statement assigns again: its keys are then what its callers pass.
 */
function destructuredParameter(checker: ts.TypeChecker, decl: ts.VariableDeclaration): ts.ParameterDeclaration | undefined {
  if (!(decl.parent.flags & ts.NodeFlags.Const) || !decl.initializer) return undefined;
  const init = unwrap(decl.initializer);
  const param = ts.isIdentifier(init) ? declarationOf(checker, init) : undefined;
  if (!param || !ts.isParameter(param) || !ts.isIdentifier(param.name) || param.dotDotDotToken) return undefined;
  return referencesOf(checker, param.name).some(isWriteReference) ? undefined : param;
}

/** `jest.mock('openai'…)` / `vi.mock('openai'…)` at a file's top level (which the runner hoists), as written; else undefined. */
function moduleMock(sf: ts.SourceFile): string | undefined {
  for (const st of sf.statements) {
    const call = ts.isExpressionStatement(st) ? unwrap(st.expression) : undefined;
    if (!call || !ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) continue;
    const { expression: runner, name } = call.expression;
    if (!ts.isIdentifier(runner) || !['jest', 'vi'].includes(runner.text) || name.text !== 'mock') continue;
    if (stringValue(call.arguments[0]) === 'openai') return `${runner.text}.mock('openai')`;
  }
  return undefined;
}

function bindingRoot(decl: ts.BindingElement): ts.Node | undefined {
  let current: ts.Node = decl;
  while (ts.isBindingElement(current) || ts.isObjectBindingPattern(current) || ts.isArrayBindingPattern(current)) current = current.parent;
  return current;
}

/** A client the SDK builds in view whose base URL is only known at run time (P-RUNTIME). */
function runtimeBaseURL(evidence: string, construction: ts.NewExpression, detail = 'runtime-base-url'): Origin {
  return { kind: 'sdk', provider: 'unknown', isDefault: false, notes: [], construction, evidence, reason: { code: 'provider-unknown', detail } };
}

/**
 * A use of an options object that leaves its members in view: a member read, a member written
 * with `=` by a name or a literal key (the caller reads those writes), a spread into a literal,
 * or the argument of a `new` (the client's construction).
 */
function readsOrWritesMember(ref: ts.Identifier): boolean {
  const use = climbWrappers(ref);
  const parent = use.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === use) return plainlyUsed(parent);
  if (ts.isElementAccessExpression(parent) && parent.expression === use) return stringValue(parent.argumentExpression) !== undefined && plainlyUsed(parent);
  if (ts.isSpreadAssignment(parent)) return true;
  return ts.isNewExpression(parent) && Boolean(parent.arguments?.includes(use as ts.Expression));
}

/** A member access that is read, or the target of a plain `=` (not `??=`, `++`, `delete`, a destructuring target). */
function plainlyUsed(access: ts.Expression): boolean {
  const outer = climbWrappers(access);
  if (isWriteReference(outer)) return isPlainWriteTarget(outer);
  const parent = outer.parent;
  return !(ts.isDeleteExpression(parent) || ts.isArrayLiteralExpression(parent) || ts.isShorthandPropertyAssignment(parent) ||
    (ts.isPropertyAssignment(parent) && ts.isObjectLiteralExpression(parent.parent) && ts.isBinaryExpression(parent.parent.parent)));
}

/** The function a node is in (not crossing arrow functions, which keep `this`). */
function enclosingFunctionOf(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isArrowFunction(at)) continue;
    if (isFunctionLike(at)) return at as ts.FunctionLikeDeclaration;
  }
  return undefined;
}
